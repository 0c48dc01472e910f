import type { PlatformServices } from '../lib/deps.js';

/** What the dependency rules read of a component: its name and the components it declares it uses. */
export interface Declared {
  name: string;
  uses?: readonly string[];
}

/** A registry whose declarations cannot be built: a name nobody declares, or components that use each other. */
export class DependencyError extends Error {}

/**
 * The components in an order where each comes after every component it uses
 * (the registry's own order kept where the declarations leave it free).
 * Refused, naming the components: a use of a component that is not
 * registered, and a loop (A uses B … uses A), which no order can build.
 */
export function dependencyOrder<C extends Declared>(components: readonly C[]): C[] {
  const byName = new Map(components.map((component) => [component.name, component]));
  for (const component of components)
    for (const used of component.uses ?? [])
      if (!byName.has(used)) throw new DependencyError(`component ${component.name} uses ${used}, which is not registered`);
  const ordered: C[] = [];
  const placed = new Set<string>();
  const visiting: string[] = [];
  const place = (component: C): void => {
    if (placed.has(component.name)) return;
    const at = visiting.indexOf(component.name);
    if (at >= 0) throw new DependencyError(`components use each other in a loop: ${[...visiting.slice(at), component.name].join(' → ')}`);
    visiting.push(component.name);
    for (const used of component.uses ?? []) place(byName.get(used)!);
    visiting.pop();
    placed.add(component.name);
    ordered.push(component);
  };
  for (const component of components) place(component);
  return ordered;
}

/**
 * The services one component sees: its own and those of the components it
 * declares it uses, nothing else; what it offers is recorded as its own. A
 * read of any other component's service is refused at once, naming both, so
 * an undeclared dependency fails where it is written, not in production.
 */
export function servicesSeenBy(component: Declared, all: PlatformServices, owners: Map<string, string>): PlatformServices {
  const seen = new Set([component.name, ...(component.uses ?? [])]);
  return new Proxy(all, {
    get(target, key, receiver) {
      if (typeof key !== 'string') return Reflect.get(target, key, receiver) as unknown;
      const owner = owners.get(key);
      if (owner === undefined) throw new DependencyError(`component ${component.name} reads the service ${key}, which no component built before it offers`);
      if (!seen.has(owner)) throw new DependencyError(`component ${component.name} uses the service ${key} of ${owner} without declaring it (uses)`);
      return Reflect.get(target, key, receiver) as unknown;
    },
    set(target, key, value, receiver) {
      if (typeof key === 'string') {
        const owner = owners.get(key);
        if (owner !== undefined && owner !== component.name)
          throw new DependencyError(`component ${component.name} offers the service ${key}, already offered by ${owner}`);
        owners.set(key, component.name);
      }
      return Reflect.set(target, key, value, receiver);
    },
  });
}

/** The components and what each uses, as the architecture page shows them (generated: `npm run docs`). */
export function dependencyPicture(components: readonly Declared[]): string {
  const ordered = dependencyOrder(components);
  const lines = [
    'Each component is built after the components it uses and sees only their services (`uses` in its `defineComponent`); a loop is refused at start.',
    '',
    '```mermaid',
    'graph BT',
    ...ordered.flatMap((component) => (component.uses?.length ? component.uses.map((used) => `  ${component.name} --> ${used}`) : [`  ${component.name}`])),
    '```',
    '',
    '| component | uses | used by |',
    '| --- | --- | --- |',
    ...ordered.map((component) => {
      const usedBy = ordered.filter((other) => other.uses?.includes(component.name)).map((other) => other.name);
      return `| ${component.name} | ${(component.uses ?? []).join(', ') || '—'} | ${usedBy.join(', ') || '—'} |`;
    }),
  ];
  return lines.join('\n');
}
