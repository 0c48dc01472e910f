import { auth } from './auth/index.js';
import type { Component } from './component.js';
import { keys } from './keys/index.js';
import { license } from './license/index.js';
import { notify } from './notify/index.js';
import { otp } from './otp/index.js';

/** Every component of the platform, in start-up order: a component's services may use those of the components before it. */
export const COMPONENTS: readonly Component[] = [keys, notify, otp, auth, license];

export function componentNamed(name: string): Component | undefined {
  return COMPONENTS.find((component) => component.name === name);
}
