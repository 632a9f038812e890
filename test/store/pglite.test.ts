import { openDb } from '../../src/store/open.ts';
import { storeContract } from './contract.ts';

storeContract('PGlite (in memory)', () => openDb({}));
