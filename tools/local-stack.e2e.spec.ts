import { execFileSync } from 'node:child_process';
import { testStack } from '@trilha/testing';

const stack = testStack();

/** 127.0.0.0/8 and ::1, also as an IPv4-mapped IPv6 address (a JVM's listener on 127.0.0.1). */
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\]|\[::ffff:127\.\d+\.\d+\.\d+\])$/;

describe('the local stack (npm start, npm test)', () => {
  it('listens on loopback only: Kafka, PostgreSQL, Redis, Zipkin, Prometheus and every port of the services', () => {
    const { gateway, kafka, kafkaController, kafkaSaslSsl, postgres, redis, zipkin, prometheus, ops, internal } = stack.ports;
    const ports = [gateway, kafka, kafkaController, kafkaSaslSsl, postgres, redis, zipkin, prometheus, ...Object.values(ops), ...Object.values(internal)];
    // `ss -ltnpH`: one listening TCP socket a line, its local address:port fourth.
    const listening = execFileSync('ss', ['-ltnpH'], { encoding: 'utf8' }).trim().split('\n').map((line) => {
      const local = line.trim().split(/\s+/)[3];
      const colon = local.lastIndexOf(':');
      return { address: local.slice(0, colon), port: Number(local.slice(colon + 1)) };
    });
    const stackSockets = listening.filter((socket) => ports.includes(socket.port));
    expect(new Set(stackSockets.map((socket) => socket.port))).toEqual(new Set(ports));
    expect(stackSockets.filter((socket) => !LOOPBACK.test(socket.address))).toEqual([]);
  });
});
