import { auth } from './auth/index.js';
import type { Component } from './component.js';

/** Every component of the platform, in start-up order. */
export const COMPONENTS: readonly Component[] = [auth];

export function componentNamed(name: string): Component | undefined {
  return COMPONENTS.find((component) => component.name === name);
}
