/**
 * Thumbnails for stories: the scripted uploader has no worker, so it answers `thumbnail()` with a small picture
 * drawn here — a sky, a hill and a sun in colours picked from the file name, portrait when the name says so.
 */
import type { TaskSnapshot } from '../src/uploader/contract/types.ts';

export async function sampleThumbnail(task: TaskSnapshot, size: number): Promise<Blob | undefined> {
  if (!/\.(jpe?g|png|gif|webp|avif|bmp)$/i.test(task.name)) return undefined;
  const hue = [...task.name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7);
  const portrait = task.name.includes('portrait');
  const canvas = new OffscreenCanvas(portrait ? (size * 3) / 4 : size, portrait ? size : (size * 3) / 4);
  const g = canvas.getContext('2d')!;
  const { width: w, height: h } = canvas;
  g.fillStyle = `hsl(${hue} 70% 75%)`;
  g.fillRect(0, 0, w, h);
  g.fillStyle = `hsl(${(hue + 40) % 360} 60% 45%)`;
  g.beginPath();
  g.ellipse(w / 2, h, w * 0.8, h * 0.45, 0, 0, Math.PI * 2);
  g.fill();
  g.fillStyle = `hsl(45 95% 60%)`;
  g.beginPath();
  g.arc(w * 0.75, h * 0.3, Math.min(w, h) * 0.12, 0, Math.PI * 2);
  g.fill();
  return canvas.convertToBlob({ type: 'image/png' });
}
