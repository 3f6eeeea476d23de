/**
 * Kafka topics. A topic name carries its contract version; a breaking change gets a new topic.
 * Messages are keyed by `idLoja` so one store's events stay in order on one partition.
 */
export const TOPICS = {
  lojas: 'lojas.events.v1',
  tracking: 'tracking.events.v1',
  atendimento: 'atendimento.events.v1',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

export interface TopicSpec {
  name: TopicName;
  partitions: number;
  /** Topic-level configuration. Events are kept forever so projections can be rebuilt. */
  config: Record<string, string>;
}

const keepForever = { 'retention.ms': '-1', 'cleanup.policy': 'delete' };

export const TOPIC_SPECS: TopicSpec[] = [
  { name: TOPICS.lojas, partitions: 6, config: keepForever },
  { name: TOPICS.tracking, partitions: 12, config: keepForever },
  { name: TOPICS.atendimento, partitions: 12, config: keepForever },
];
