/**
 * Canvas views as data: a view module computes a Scene (rectangles, lines, paths, arcs,
 * circles and text in CSS pixels; segments, arcs and dots batched by style when there are
 * thousands) as a pure function of what it shows, and paintScene draws it. Tests snapshot
 * sceneText(), so what the canvas shows is checked without a canvas.
 */

export type SceneItem =
  | { t: 'rect'; x: number; y: number; w: number; h: number; fill?: string; stroke?: string; lw?: number; dash?: number[]; tag?: string }
  | { t: 'line'; x1: number; y1: number; x2: number; y2: number; stroke: string; lw?: number; dash?: number[] }
  | { t: 'path'; points: Array<[number, number]>; stroke: string; lw?: number; dash?: number[] }
  | { t: 'text'; x: number; y: number; text: string; fill?: string; font?: string; align?: 'left' | 'center' | 'right'; baseline?: 'top' | 'middle' | 'bottom' | 'alphabetic' }
  /** A circular arc around (cx, cy) from angle a0 to a1 (radians, clockwise from 3 o'clock, as canvas measures). */
  | { t: 'arc'; cx: number; cy: number; r: number; a0: number; a1: number; stroke: string; lw?: number; dash?: number[]; tag?: string }
  | { t: 'circle'; cx: number; cy: number; r: number; fill?: string; stroke?: string; lw?: number; tag?: string }
  /** Many line segments of one colour in one stroke: [x1, y1, x2, y2, x1, y1, …]. */
  | { t: 'segments'; xy: number[]; stroke: string; lw?: number; tag?: string }
  /** Many arcs of one circle and colour in one stroke: spans [a0, a1, a0, a1, …] (radians). */
  | { t: 'arcs'; cx: number; cy: number; r: number; spans: number[]; stroke: string; lw?: number; tag?: string }
  /** Many circles of one radius and style in one fill and one stroke: centres [x, y, x, y, …]. */
  | { t: 'dots'; xy: number[]; r: number; fill?: string; stroke?: string; lw?: number; tag?: string };

export interface Scene {
  width: number;
  height: number;
  items: SceneItem[];
}

export const FONT = '12px system-ui, -apple-system, "Segoe UI", sans-serif';
export const FONT_SMALL = '11px system-ui, -apple-system, "Segoe UI", sans-serif';
export const FONT_BOLD = '600 12px system-ui, -apple-system, "Segoe UI", sans-serif';
export const FONT_MONO = '11px ui-monospace, "SFMono-Regular", Menlo, monospace';

/** Sizes `canvas` for the scene at the device pixel ratio and draws it. */
export function paintScene(canvas: HTMLCanvasElement, scene: Scene, dpr = 1): void {
  const w = Math.round(scene.width * dpr);
  const h = Math.round(scene.height * dpr);
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  canvas.style.width = `${scene.width}px`;
  canvas.style.height = `${scene.height}px`;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, scene.width, scene.height);
  drawItems(ctx, scene.items);
}

/**
 * Draws `base` (a canvas painted at the same size and ratio, e.g. by paintScene) and then the
 * scene's items over it: a static layer drawn once and a light overlay drawn every frame.
 */
export function paintOver(canvas: HTMLCanvasElement, base: HTMLCanvasElement, scene: Scene, dpr = 1): void {
  if (canvas.width !== base.width) canvas.width = base.width;
  if (canvas.height !== base.height) canvas.height = base.height;
  canvas.style.width = `${scene.width}px`;
  canvas.style.height = `${scene.height}px`;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(base, 0, 0);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  drawItems(ctx, scene.items);
}

/** The drawing part of paintScene: each item in order onto a context already scaled. */
export function drawItems(ctx: CanvasRenderingContext2D, items: SceneItem[]): void {
  for (const it of items) {
    switch (it.t) {
      case 'rect':
        if (it.fill) {
          ctx.fillStyle = it.fill;
          ctx.fillRect(it.x, it.y, it.w, it.h);
        }
        if (it.stroke) {
          ctx.strokeStyle = it.stroke;
          ctx.lineWidth = it.lw ?? 1;
          ctx.setLineDash(it.dash ?? []);
          ctx.strokeRect(it.x, it.y, it.w, it.h);
        }
        break;
      case 'line':
        ctx.strokeStyle = it.stroke;
        ctx.lineWidth = it.lw ?? 1;
        ctx.setLineDash(it.dash ?? []);
        ctx.beginPath();
        ctx.moveTo(it.x1, it.y1);
        ctx.lineTo(it.x2, it.y2);
        ctx.stroke();
        break;
      case 'path':
        if (it.points.length < 2) break;
        ctx.strokeStyle = it.stroke;
        ctx.lineWidth = it.lw ?? 1;
        ctx.setLineDash(it.dash ?? []);
        ctx.beginPath();
        ctx.moveTo(it.points[0]![0], it.points[0]![1]);
        for (const [x, y] of it.points.slice(1)) ctx.lineTo(x, y);
        ctx.stroke();
        break;
      case 'text':
        ctx.fillStyle = it.fill ?? '#1f2328';
        ctx.font = it.font ?? FONT;
        ctx.textAlign = it.align ?? 'left';
        ctx.textBaseline = it.baseline ?? 'alphabetic';
        ctx.fillText(it.text, it.x, it.y);
        break;
      case 'arc':
        beginStroke(ctx, it.stroke, it.lw, it.dash);
        ctx.arc(it.cx, it.cy, it.r, it.a0, it.a1);
        ctx.stroke();
        break;
      case 'circle':
        ctx.beginPath();
        ctx.arc(it.cx, it.cy, it.r, 0, 2 * Math.PI);
        fillAndStroke(ctx, it);
        break;
      case 'segments':
        beginStroke(ctx, it.stroke, it.lw);
        for (let k = 0; k + 3 < it.xy.length; k += 4) {
          ctx.moveTo(it.xy[k]!, it.xy[k + 1]!);
          ctx.lineTo(it.xy[k + 2]!, it.xy[k + 3]!);
        }
        ctx.stroke();
        break;
      case 'arcs':
        beginStroke(ctx, it.stroke, it.lw);
        for (let k = 0; k + 1 < it.spans.length; k += 2) {
          ctx.moveTo(it.cx + it.r * Math.cos(it.spans[k]!), it.cy + it.r * Math.sin(it.spans[k]!));
          ctx.arc(it.cx, it.cy, it.r, it.spans[k]!, it.spans[k + 1]!);
        }
        ctx.stroke();
        break;
      case 'dots':
        ctx.beginPath();
        for (let k = 0; k + 1 < it.xy.length; k += 2) {
          ctx.moveTo(it.xy[k]! + it.r, it.xy[k + 1]!);
          ctx.arc(it.xy[k]!, it.xy[k + 1]!, it.r, 0, 2 * Math.PI);
        }
        fillAndStroke(ctx, it);
        break;
    }
  }
  ctx.setLineDash([]);
}

/** Sets a stroke's style and starts a path. */
function beginStroke(ctx: CanvasRenderingContext2D, stroke: string, lw = 1, dash: number[] = []): void {
  ctx.strokeStyle = stroke;
  ctx.lineWidth = lw;
  ctx.setLineDash(dash);
  ctx.beginPath();
}

/** Fills and then outlines the current path, as the item asks. */
function fillAndStroke(ctx: CanvasRenderingContext2D, it: { fill?: string; stroke?: string; lw?: number }): void {
  if (it.fill) {
    ctx.fillStyle = it.fill;
    ctx.fill();
  }
  if (it.stroke) {
    ctx.strokeStyle = it.stroke;
    ctx.lineWidth = it.lw ?? 1;
    ctx.setLineDash([]);
    ctx.stroke();
  }
}

const r1 = (v: number) => Math.round(v * 10) / 10;
const r3 = (v: number) => Math.round(v * 1000) / 1000;

/** One line per item, numbers to 0.1 px: the form snapshot tests compare. */
export function sceneText(scene: Scene): string {
  const lines = [`scene ${r1(scene.width)}×${r1(scene.height)}`];
  for (const it of scene.items) {
    switch (it.t) {
      case 'rect':
        lines.push(`rect ${r1(it.x)},${r1(it.y)} ${r1(it.w)}×${r1(it.h)}${it.fill ? ` fill=${it.fill}` : ''}${it.stroke ? ` stroke=${it.stroke}` : ''}${it.dash ? ' dashed' : ''}${it.tag ? ` [${it.tag}]` : ''}`);
        break;
      case 'line':
        lines.push(`line ${r1(it.x1)},${r1(it.y1)} → ${r1(it.x2)},${r1(it.y2)} ${it.stroke}${it.dash ? ' dashed' : ''}`);
        break;
      case 'path':
        lines.push(`path ${it.points.map(([x, y]) => `${r1(x)},${r1(y)}`).join(' ')} ${it.stroke}`);
        break;
      case 'text':
        lines.push(`text ${r1(it.x)},${r1(it.y)} ${JSON.stringify(it.text)}${it.align && it.align !== 'left' ? ` ${it.align}` : ''}`);
        break;
      case 'arc':
        lines.push(`arc ${r1(it.cx)},${r1(it.cy)} r${r1(it.r)} ${r3(it.a0)}→${r3(it.a1)} ${it.stroke}${it.lw ? ` lw${r1(it.lw)}` : ''}${it.dash ? ' dashed' : ''}${it.tag ? ` [${it.tag}]` : ''}`);
        break;
      case 'circle':
        lines.push(`circle ${r1(it.cx)},${r1(it.cy)} r${r1(it.r)}${it.fill ? ` fill=${it.fill}` : ''}${it.stroke ? ` stroke=${it.stroke}` : ''}${it.tag ? ` [${it.tag}]` : ''}`);
        break;
      case 'segments':
        lines.push(`segments ${it.xy.length / 4} ${it.stroke}${it.tag ? ` [${it.tag}]` : ''}: ${it.xy.map(r1).join(' ')}`);
        break;
      case 'arcs':
        lines.push(`arcs ${it.spans.length / 2} ${r1(it.cx)},${r1(it.cy)} r${r1(it.r)} ${it.stroke}${it.tag ? ` [${it.tag}]` : ''}: ${it.spans.map(r3).join(' ')}`);
        break;
      case 'dots':
        lines.push(`dots ${it.xy.length / 2} r${r1(it.r)}${it.fill ? ` fill=${it.fill}` : ''}${it.stroke ? ` stroke=${it.stroke}` : ''}${it.tag ? ` [${it.tag}]` : ''}: ${it.xy.map(r1).join(' ')}`);
        break;
    }
  }
  return lines.join('\n');
}

/** The texts of a scene, in order (for assertions about labels). */
export function sceneTexts(scene: Scene): string[] {
  return scene.items.flatMap((it) => (it.t === 'text' ? [it.text] : []));
}
