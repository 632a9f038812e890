/** `coinwallet …` from the sources (not the build): `node bin/run-ts.js test/apps/support/cli-from-source.ts serve`. */
import { main } from '../../../src/cli/main.ts';

process.exit(await main(process.argv.slice(2)));
