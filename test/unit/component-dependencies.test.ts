// Dependencies declared (gateway/dependencies.ts): the registry builds each component after those it
// uses and refuses a loop; a component sees only the services of the components it declared; the
// architecture page's picture is the one generated from the declarations.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMPONENTS } from '../../gateway/components.js';
import { DependencyError, dependencyOrder, servicesSeenBy } from '../../gateway/dependencies.js';
import { ARCHITECTURE_PAGE, withComponentPicture } from '../../gateway/settings-doc.js';
import type { PlatformServices } from '../../lib/deps.js';

describe('component dependencies', () => {
  it('builds every component after the components it uses, and the registry has no loop', () => {
    const position = new Map(COMPONENTS.map((component, index) => [component.name, index]));
    for (const component of COMPONENTS)
      for (const used of component.uses ?? []) expect(position.get(used), `${component.name} uses ${used}`).toBeLessThan(position.get(component.name)!);
    expect(COMPONENTS.map((component) => component.name)).toEqual([
      'keys',
      'notify',
      'otp',
      'auth',
      'license',
      'masterdata',
      'syncdata',
      'partner',
      'idrepo',
      'regproc',
      'abis',
      'prereg',
      'node',
    ]);
  });

  it('refuses a loop, naming it, and a use of a component that is not registered', () => {
    const loop = [
      { name: 'a', uses: ['c'] },
      { name: 'b', uses: ['a'] },
      { name: 'c', uses: ['b'] },
    ];
    expect(() => dependencyOrder(loop)).toThrow(DependencyError);
    expect(() => dependencyOrder(loop)).toThrow('components use each other in a loop: a → c → b → a');
    expect(() => dependencyOrder([{ name: 'a', uses: ['ghost'] }])).toThrow('component a uses ghost, which is not registered');
    expect(dependencyOrder([{ name: 'b', uses: ['a'] }, { name: 'a' }]).map((component) => component.name)).toEqual(['a', 'b']);
  });

  it("lets a component read its own services and those of the components it declared, and refuses any other's", () => {
    const all = {} as PlatformServices;
    const owners = new Map<string, string>();
    const view = (name: string, uses: string[] = []) => servicesSeenBy({ name, uses }, all, owners) as unknown as Record<string, unknown>;
    Object.assign(view('low'), { lowService: 1 });
    Object.assign(view('side'), { sideService: 2 });
    const upper = view('upper', ['low']);
    upper.upperService = 3;
    expect(upper.lowService).toBe(1);
    expect(upper.upperService).toBe(3);
    expect(() => upper.sideService).toThrow('component upper uses the service sideService of side without declaring it (uses)');
    expect(() => upper.later).toThrow('component upper reads the service later, which no component built before it offers');
    expect(() => Object.assign(view('other'), { lowService: 4 })).toThrow('component other offers the service lowService, already offered by low');
  });

  it("docs/architecture.md's picture is the one generated from the declarations (npm run docs)", () => {
    const page = readFileSync(ARCHITECTURE_PAGE, 'utf8');
    expect(page).toBe(withComponentPicture(page));
  });
});
