// @vitest-environment jsdom
// SessionField: a live view's control generated from a session's schema. Ranges, units and help
// come from the schema; choices from the schema, named by the core's labels or the view's
// names, and a name that does not match the schema's choices is an error, not a dropped option.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../model/session/schema';
import type { ParamValue } from '../model/types';
import { choiceOptions, helpText, OpArgField, SessionField, sessionSchema, SpecField, type FieldSpec } from './SessionField';

const session: SessionInfo = {
  id: 'fixture', lab: 'fixture', view: '', title: 'Fixture', summary: '', script: false, views: [],
  params: [
    { name: 'servers', type: 'int', default: 2, min: 1, max: 16, unit: 'servers', help: 'Servers sharing the queue', live: false },
    { name: 'rate', type: 'real', default: 50000, min: 1, max: 1e9, unit: 'requests/s', help: 'Poisson arrival rate.', live: true },
    { name: 'device', type: 'choice', default: 'b', choices: ['a', 'b'], unit: '', help: 'the device', live: false },
    { name: 'prefill', type: 'bool', default: false, unit: '', help: 'start used', live: false },
  ],
  ops: [{ name: 'fill', help: 'bulk puts', args: [
    { name: 'count', type: 'int', default: 1000, min: 1, max: 2000, unit: 'keys', help: 'how many keys', required: true },
    { name: 'key', type: 'string', default: '', unit: '', help: 'application key', required: false },
  ] }],
};
const labelled: FieldSpec = { ...session.params[2]!, labels: ['Device A', 'Device B'] };
type Config = { servers: number; rate: number; device: string; prefill: boolean };
const config: Config = { servers: 3, rate: 60000, device: 'b', prefill: true };

function html(node: React.ReactElement): string {
  return renderToStaticMarkup(node);
}

/** The attributes of the element `id` in the markup `node` renders to. */
function attrs(node: React.ReactElement, id: string): Record<string, string> {
  const doc = new DOMParser().parseFromString(html(node), 'text/html');
  const el = doc.getElementById(id);
  if (!el) throw new Error(`no #${id}`);
  return Object.fromEntries([...el.attributes].map((a) => [a.name, a.value]));
}

describe('SessionField', () => {
  it('gives a number field the schema range, a step and the help with range and unit', () => {
    const node = <SessionField session={session} name="servers" id="q-servers" label="servers k" config={config} onConfig={() => {}} />;
    const out = html(node);
    expect(out).toContain('<label for="q-servers">servers k</label>');
    expect(attrs(node, 'q-servers')).toEqual({
      id: 'q-servers', type: 'number', min: '1', max: '16', step: '1', value: '3',
      title: 'Servers sharing the queue. Range 1 – 16 servers.', 'aria-describedby': 'q-servers-help',
    });
    expect(out).toContain('<span id="q-servers-help" class="sr-only">Servers sharing the queue. Range 1 – 16 servers.</span>');
    // A real takes any value unless the view gives a step; a scale shows it in other units.
    expect(attrs(<SessionField session={session} name="rate" id="r" label="rate" config={config} onConfig={() => {}} />, 'r').step).toBe('any');
    const scaled = attrs(<SessionField session={session} name="rate" id="r" label="rate" step={1} scale={{ factor: 1000, unit: 'k requests/s' }} config={config} onConfig={() => {}} />, 'r');
    expect(scaled).toMatchObject({ min: '0.001', max: '1000000', step: 'any', value: '60', title: 'Poisson arrival rate. Range 0.001 – 1M k requests/s.' });
    // A step the minimum is a multiple of is kept; another would step 60 to 60.001 and is not.
    expect(attrs(<SessionField session={session} name="servers" id="s" label="s" step={4} config={config} onConfig={() => {}} />, 's').step).toBe('any');
    expect(attrs(<SessionField session={session} name="servers" id="s" label="s" step={0.5} config={config} onConfig={() => {}} />, 's').step).toBe('0.5');
  });

  it('lists a choice in the schema order, by the core labels or the view names', () => {
    expect(choiceOptions(session.params[2]!)).toEqual([['a', 'a'], ['b', 'b']]);
    expect(choiceOptions(labelled)).toEqual([['a', 'Device A'], ['b', 'Device B']]);
    expect(choiceOptions(labelled, { b: 'bee', a: 'ay' })).toEqual([['a', 'ay'], ['b', 'bee']]);
    const out = html(<SpecField spec={labelled} id="dev" label="device" value="b" onChange={() => {}} />);
    expect(out).toContain('<select id="dev" title="the device." aria-describedby="dev-help">');
    expect(out).toContain('<option value="a">Device A</option><option value="b" selected="">Device B</option>');
  });

  it('refuses a display name for no choice, a choice without one, and labels that do not match', () => {
    expect(() => choiceOptions(labelled, { a: 'A', b: 'B', c: 'C' })).toThrow("display names for 'c': not choices of 'device' (a, b)");
    expect(() => choiceOptions(labelled, { a: 'A' })).toThrow("'device' has choices without a display name: b");
    expect(() => choiceOptions({ ...labelled, labels: ['only one'] })).toThrow("'device' has 1 labels for 2 choices");
    expect(() => html(<SessionField session={session} name="device" id="d" label="d" names={{ a: 'A' }} config={config} onConfig={() => {}} />)).toThrow(/without a display name/);
  });

  it('renders a bool as a checkbox and a string argument as text', () => {
    expect(html(<SessionField session={session} name="prefill" id="p" label="prefill" config={config} onConfig={() => {}} />))
      .toMatch(/<input id="p" type="checkbox" title="start used." aria-describedby="p-help" checked=""\/>/);
    const key = attrs(<OpArgField session={session} op="fill" arg="key" id="k" label="key" value="apple" onChange={() => {}} />, 'k');
    expect(key).toMatchObject({ type: 'text', value: 'apple', title: 'application key.' });
    expect(key.min).toBeUndefined();
  });

  it('takes an operation argument range from the operation schema', () => {
    const fill = attrs(<OpArgField session={session} op="fill" arg="count" id="fill" label="keys" value={1000} onChange={() => {}} />, 'fill');
    expect(fill).toMatchObject({ min: '1', max: '2000', step: '1', value: '1000', title: 'how many keys. Range 1 – 2000 keys.' });
  });

  it('fails on a field or argument the schema lacks, and on a preset outside the range', () => {
    expect(() => html(<SessionField<Config & { nope: number }> session={session} name="nope" id="x" label="x" config={{ ...config, nope: 1 }} onConfig={() => {}} />))
      .toThrow("the fixture session has no parameter 'nope'");
    expect(() => html(<OpArgField session={session} op="fill" arg="nope" id="x" label="x" value={1} onChange={() => {}} />))
      .toThrow("the fixture session's operation 'fill' has no argument 'nope'");
    expect(() => sessionSchema('nope', [session])).toThrow("no live session 'nope'");
    expect(() => html(<SessionField session={session} name="servers" id="s" label="s" presets={[[2, 'two'], [20, 'twenty']]} config={config} onConfig={() => {}} />))
      .toThrow("preset 20 of 'servers' is outside its range [1, 16]");
    const custom = html(<SessionField session={session} name="servers" id="s" label="s" presets={[[2, 'two'], [4, 'four']]} config={config} onConfig={() => {}} />);
    expect(custom).toContain('<option value="2">two</option><option value="4">four</option><option value="custom" selected="">3 servers</option>');
  });

  it('ends help with one period', () => {
    expect(helpText(session.params[3]!)).toBe('start used.');
    expect(helpText(session.params[1]!)).toBe('Poisson arrival rate. Range 1 – 1B requests/s.');
  });
});

describe('SessionField edits', () => {
  let root: Root | null = null;
  let host: HTMLDivElement | null = null;
  afterEach(() => {
    act(() => root?.unmount());
    host?.remove();
  });

  function mount(node: React.ReactElement): HTMLElement {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    act(() => root!.render(node));
    return host;
  }

  function type(el: HTMLInputElement | HTMLSelectElement, text: string) {
    const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, text);
    act(() => {
      el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
    });
  }

  it('rounds an int, scales a scaled real back, keeps the value while the text is no number, and passes a choice and a bool', () => {
    const onConfig = vi.fn<(p: Partial<Config>) => void>();
    const el = mount(
      <>
        <SessionField session={session} name="servers" id="s" label="s" config={config} onConfig={onConfig} />
        <SessionField session={session} name="rate" id="r" label="r" scale={{ factor: 1000, unit: 'k/s' }} config={config} onConfig={onConfig} />
        <SessionField session={session} name="device" id="d" label="d" config={config} onConfig={onConfig} />
        <SessionField session={session} name="prefill" id="p" label="p" config={config} onConfig={onConfig} />
      </>,
    );
    type(el.querySelector<HTMLInputElement>('#s')!, '4.6');
    type(el.querySelector<HTMLInputElement>('#r')!, '2.5');
    type(el.querySelector<HTMLSelectElement>('#d')!, 'a');
    act(() => el.querySelector<HTMLInputElement>('#p')!.click());
    expect(onConfig.mock.calls.map((c) => c[0])).toEqual([{ servers: 5 }, { rate: 2500 }, { device: 'a' }, { prefill: false }]);
  });

  it('passes a number typed as text on as typed', () => {
    const onChange = vi.fn<(v: ParamValue) => void>();
    const spec: FieldSpec = { name: 'fraction', type: 'real', default: 0.5, min: 0, max: 1, unit: '', help: 'where', required: false };
    const el = mount(<SpecField spec={spec} id="f" label="f" asText value="0.5" onChange={onChange} />);
    const input = el.querySelector<HTMLInputElement>('#f')!;
    expect(input.type).toBe('text');
    expect(input.inputMode).toBe('decimal');
    type(input, 'half');
    expect(onChange).toHaveBeenCalledWith('half');
  });
});
