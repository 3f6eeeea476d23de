import type { TestStack } from './stack';

/** A span as Zipkin's API v2 returns it (times in microseconds, every tag a string). */
export interface ZipkinSpan {
  traceId: string;
  id: string;
  parentId?: string;
  /** Absent for an internal span. */
  kind?: 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';
  /** Lower-cased by Zipkin. */
  name: string;
  timestamp: number;
  duration: number;
  localEndpoint: { serviceName: string };
  tags: Record<string, string>;
}

/** The spans of a trace in the stack's Zipkin, none (an empty list) while it has none. */
export async function zipkinTrace(stack: TestStack, traceId: string): Promise<ZipkinSpan[]> {
  const response = await fetch(`${stack.zipkinUrl}/api/v2/trace/${traceId}`);
  if (response.status === 404) return [];
  if (!response.ok) throw new Error(`Zipkin answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as ZipkinSpan[];
}
