import { createHash, createPublicKey } from 'node:crypto';
import { decodeBase64Any } from '../../lib/crypto/envelope.js';
import { PlatformError } from '../../lib/errors.js';
import type { Principal } from '../../lib/tokens.js';
import { keyErrors } from './errors.js';
import type { MachineKeyRow, MachineKeyRows } from './storage.js';

/** The caller of an operation that depends on who asks: its roles (crypto) and name (audit). */
export type Caller = Pick<Principal, 'subject' | 'roles'>;

/** Roles that may give a machine that already has a key another one. */
const MACHINE_REMAPPERS = ['GLOBAL_ADMIN', 'REGISTRATION_ADMIN'];

/** A machine's public key (PEM or base64 SPKI) as it is kept (DER) and found (its SHA-256, hex); KER-CRY-002 when it is none. */
function machineKey(publicKey: string): { der: Buffer; keyIndex: string } {
  try {
    const key = publicKey.includes('-----BEGIN')
      ? createPublicKey(publicKey)
      : createPublicKey({ key: decodeBase64Any(publicKey), format: 'der', type: 'spki' });
    const der = key.export({ type: 'spki', format: 'der' });
    return { der, keyIndex: createHash('sha256').update(der).digest('hex') };
  } catch {
    throw keyErrors.badPublicKey('publicKey is not a base64 SPKI (X.509) public key');
  }
}

/** Registration machines' public keys: mapped (by the machine's staff or admins) and verified. */
export class MapMachineKey {
  constructor(
    private readonly rows: MachineKeyRows,
    /** whether a caller may map a key to a machine: master data's rule (the machine's centre staff, the admins of its zone) */
    private readonly mayMapMachine: (caller: Caller, machineName: string) => Promise<void>,
  ) {}

  /**
   * Maps a machine's public key. Any registration role may map a new machine;
   * re-mapping a machine that already has another key takes an admin, and the
   * row keeps who mapped it first and who re-mapped it, and when.
   */
  async upload(caller: Caller, machineName: string, publicKey: string) {
    if (!machineName?.trim()) throw keyErrors.emptyInput('machineName');
    const { der, keyIndex } = machineKey(publicKey);
    await this.mayMapMachine(caller, machineName);
    const other = await this.rows.machineByKeyIndex(keyIndex);
    if (other && other.machineName !== machineName) throw keyErrors.badPublicKey(`the key is already mapped to machine ${other.machineName}`);
    const mapped = await this.rows.machineByName(machineName);
    if (mapped && mapped.keyIndex !== keyIndex && !caller.roles.some((role) => MACHINE_REMAPPERS.includes(role))) {
      throw new PlatformError('KER-ATH-403', `Forbidden: machine ${machineName} already has a key; only an admin may map another`);
    }
    const row = { publicKey: der.toString('base64'), keyIndex };
    if (!mapped) await this.rows.createMachine({ machineName, ...row, createdBy: caller.subject });
    else if (mapped.keyIndex !== keyIndex) await this.rows.updateMachine(machineName, { ...row, updatedBy: caller.subject });
    return { machineName, keyIndex, verified: null };
  }

  /**
   * The machine a key index names and the key mapped to it (base64 SPKI
   * DER), null for an index mapped to none. A client sends the index as
   * keys made it (the SHA-256 of the key, hex) in either case.
   */
  byIndex(keyIndex: string): Promise<Pick<MachineKeyRow, 'machineName' | 'publicKey'> | null> {
    return this.rows.machineByKeyIndex(keyIndex.trim().toLowerCase());
  }

  /**
   * Whether a public key is the one mapped to a machine. A machine without a
   * mapped key is unknown here: KER-SNC-155, as MOSIP's sync data answers a
   * machine it does not find (validateKeyMachineMapping).
   */
  async verify(machineName: string, publicKey: string) {
    if (!machineName?.trim()) throw keyErrors.emptyInput('machineName');
    const { keyIndex } = machineKey(publicKey);
    const mapped = await this.rows.machineByName(machineName);
    if (!mapped) throw keyErrors.machineNotFound(machineName);
    return { machineName, keyIndex, verified: mapped.keyIndex === keyIndex };
  }
}
