import { openDb } from '../../src/store/open.ts';
import { operationUsageContract } from '../store/operation-usage-contract.ts';

operationUsageContract('PGlite (in memory)', () => openDb({}));
