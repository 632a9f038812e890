import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/**
 * Reads `<dataDir>/secrets/<name>`, creating it with `make()` (mode 0600, folder 0700) when absent. The new value is
 * written aside and hard-linked into place, so two processes starting at once never see a half-written file and the
 * loser of the race reads the winner's value. Used for the embedded mode's generated secrets (key pepper, admin
 * token, bridge attestation seed).
 */
export function fileSecret(dataDir: string, name: string, make: () => string): string {
  const dir = join(dataDir, 'secrets');
  const path = join(dir, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!existsSync(path)) {
    const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(tmp, make() + '\n', { mode: 0o600, flag: 'wx' });
    try {
      linkSync(tmp, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(tmp);
    }
  }
  chmodSync(path, 0o600);
  return readFileSync(path, 'utf8').trim();
}
