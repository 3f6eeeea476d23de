import { apiClient } from './https-client';
import { testStack } from './stack';

let client: ReturnType<typeof apiClient> | undefined;
/** The stack's gateway, as the helpers of this library reach it (not exported from the barrel). */
export function gateway(): ReturnType<typeof apiClient> {
  const stack = testStack();
  return (client ??= apiClient(stack.baseUrl, stack.caFile));
}
