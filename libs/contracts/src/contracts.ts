import { ATENDIMENTO_CONTRACT } from './atendimento.events.v1';
import { LOJAS_CONTRACT } from './lojas.events.v1';
import { TOPICS, type TopicName } from './topics';
import { TRACKING_CONTRACT } from './tracking.events.v1';
import type { TopicContract } from './validate-message';

/** Every topic's contract: its event types, their payload classes and accepted versions. */
export const TOPIC_CONTRACTS: Record<TopicName, TopicContract> = {
  [TOPICS.lojas]: LOJAS_CONTRACT,
  [TOPICS.tracking]: TRACKING_CONTRACT,
  [TOPICS.atendimento]: ATENDIMENTO_CONTRACT,
};
