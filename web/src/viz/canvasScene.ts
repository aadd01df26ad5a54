/**
 * Canvas views as data: a view module computes a Scene (rectangles, lines, paths and text in
 * CSS pixels) as a pure function of what it shows, and paintScene draws it. Tests snapshot
 * sceneText(), so what the canvas shows is checked without a canvas.
 */

export type SceneItem =
  | { t: 'rect'; x: number; y: number; w: number; h: number; fill?: string; stroke?: string; lw?: number; dash?: number[]; tag?: string }
  | { t: 'line'; x1: number; y1: number; x2: number; y2: number; stroke: string; lw?: number; dash?: number[] }
  | { t: 'path'; points: Array<[number, number]>; stroke: string; lw?: number; dash?: number[] }
  | { t: 'text'; x: number; y: number; text: string; fill?: string; font?: string; align?: 'left' | 'center' | 'right'; baseline?: 'top' | 'middle' | 'bottom' | 'alphabetic' };

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
  for (const it of scene.items) {
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
    }
  }
  ctx.setLineDash([]);
}

const r1 = (v: number) => Math.round(v * 10) / 10;

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
    }
  }
  return lines.join('\n');
}

/** The texts of a scene, in order (for assertions about labels). */
export function sceneTexts(scene: Scene): string[] {
  return scene.items.flatMap((it) => (it.t === 'text' ? [it.text] : []));
}
