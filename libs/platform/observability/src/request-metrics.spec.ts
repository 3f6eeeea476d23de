import { statusClass } from './request-metrics';

describe('the status class of an API request, as the SLOs count it', () => {
  it('is the answer’s hundred, or aborted when the client left before the answer ended', () => {
    expect([statusClass(200, true), statusClass(404, true), statusClass(503, true), statusClass(200, false)]).toEqual(['2xx', '4xx', '5xx', 'aborted']);
  });
});
