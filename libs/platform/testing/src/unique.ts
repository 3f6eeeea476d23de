import { randomBytes } from 'node:crypto';

/** Ten random hex characters, to make a test's data (an order number, say) its own. */
export const uniqueId = (): string => randomBytes(5).toString('hex');
