// Peer framing and the hello/welcome/peers control frames: round trips, every split of a
// stream, and every kind of bad input naming its problem.
import { describe, expect, it } from 'vitest';
import { CODEC_MAGIC, encodeFrame, FrameError, frameKind, FrameReader } from './frames.js';
import {
  encodeHello, encodePeers, encodeWelcome, formatHostPort, parseControl, parseHello, parseHostPort,
} from './hello.js';
import { FRAME_MAX_BYTES } from './limits.js';

const cfg = { replicas: 3, vids: 2, heartbeatMs: 500, missed: 3, fileBytes: 1 << 26 };

describe('FrameReader', () => {
  it('reads frames back across every split point', () => {
    const payloads = [Buffer.from([CODEC_MAGIC, 1, 2]), Buffer.from('{"a":1}'), Buffer.alloc(300, 7)];
    const wire = Buffer.concat(payloads.map((p) => encodeFrame(p)));
    for (let cut = 0; cut <= wire.length; cut++) {
      const r = new FrameReader();
      const got = [...r.push(wire.subarray(0, cut)), ...r.push(wire.subarray(cut))];
      expect(got).toEqual(payloads);
      expect(r.pending).toBe(0);
    }
    const r = new FrameReader();
    const byteByByte = [...wire].flatMap((b) => r.push(Buffer.from([b])));
    expect(byteByByte).toEqual(payloads);
  });

  it('refuses zero and oversize lengths, and stays failed', () => {
    const r = new FrameReader();
    expect(() => r.push(Buffer.from([0, 0, 0, 0]))).toThrow(/bad frame length 0/);
    expect(() => r.push(Buffer.from([1]))).toThrow(FrameError);
    const big = Buffer.alloc(4);
    big.writeUInt32BE(FRAME_MAX_BYTES + 1);
    expect(() => new FrameReader().push(big)).toThrow(`bad frame length ${FRAME_MAX_BYTES + 1}`);
    expect(() => new FrameReader().push(Buffer.from([0xff, 0xff, 0xff, 0xff]))).toThrow(/4294967295/);
  });

  it('accepts the largest frame and holds a partial one without growing past it', () => {
    const r = new FrameReader(1000);
    const wire = encodeFrame(Buffer.alloc(1000, 1)).subarray(0, 4 + 1000);
    expect(r.push(wire.subarray(0, 500))).toEqual([]);
    expect(r.pending).toBe(500);
    expect(r.push(wire.subarray(500))[0]!.length).toBe(1000);
  });

  it('encodeFrame refuses what no reader would accept', () => {
    expect(() => encodeFrame(Buffer.alloc(0))).toThrow(RangeError);
  });

  it('classifies payloads', () => {
    expect(frameKind(Buffer.from('{}'))).toBe('json');
    expect(frameKind(Buffer.from([CODEC_MAGIC]))).toBe('codec');
    expect(frameKind(Buffer.from([0]))).toBe('unknown');
  });
});

describe('control frames', () => {
  it('round-trip', () => {
    const h = { from: 3, listen: '127.0.0.1:4000', token: 't', boot: '0123abcd' };
    expect(parseHello(encodeHello(h))).toEqual(h);
    expect(parseHello(encodeHello({ from: -1, listen: '[::1]:9' }))).toEqual({ from: -1, listen: '[::1]:9' });
    const peers = new Map([[-1, 'a.example:1'], [0, '10.0.0.2:7000']]);
    expect(parseControl(encodeWelcome({ id: 4, peers, config: cfg }))).toEqual({ welcome: { id: 4, peers, config: cfg } });
    expect(parseControl(encodePeers(peers))).toEqual({ peers });
  });

  it('name what is wrong', () => {
    const bad: Array<[string, RegExp]> = [
      ['not json', /not valid JSON/],
      ['[1]', /not a JSON object/],
      ['{"fawnlab":2,"from":1,"listen":"a:1"}', /version 2/],
      ['{"fawnlab":1,"from":"1","listen":"a:1"}', /"from"/],
      ['{"fawnlab":1,"from":1.5,"listen":"a:1"}', /"from"/],
      ['{"fawnlab":1,"from":-2,"listen":"a:1"}', /"from"/],
      ['{"fawnlab":1,"from":1,"listen":"a"}', /"listen"/],
      ['{"fawnlab":1,"from":1,"listen":"a:99999"}', /"listen"/],
      ['{"fawnlab":1,"from":1,"listen":"a:1","token":5}', /"token"/],
      ['{"fawnlab":1,"from":1,"listen":"a:1","boot":"xyz"}', /"boot"/],
    ];
    for (const [text, re] of bad) expect(parseHello(Buffer.from(text)), text).toMatch(re);
    expect(parseControl(Buffer.from('{"fawnlab":1,"peers":{"x":"a:1"}}'))).toMatch(/not an endpoint/);
    expect(parseControl(Buffer.from('{"fawnlab":1,"peers":{"1":"nope"}}'))).toMatch(/bad address/);
    expect(parseControl(Buffer.from('{"fawnlab":1,"peers":{},"id":-1}'))).toMatch(/back-end id/);
    expect(parseControl(Buffer.from('{"fawnlab":1,"peers":{},"id":1,"config":{}}'))).toMatch(/config.replicas/);
    expect(parseControl(Buffer.from('{"fawnlab":1}'))).toMatch(/"peers"/);
  });

  it('parse and format host:port', () => {
    expect(parseHostPort('127.0.0.1:8200')).toEqual({ host: '127.0.0.1', port: 8200 });
    expect(parseHostPort('[::1]:80')).toEqual({ host: '::1', port: 80 });
    expect(parseHostPort('host:0')).toMatch(/outside/);
    expect(parseHostPort('a b:1')).toMatch(/not host:port/);
    expect(formatHostPort('::1', 5)).toBe('[::1]:5');
  });
});
