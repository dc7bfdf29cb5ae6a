/**
 * The demo's pictures, drawn here rather than checked in: SVG shapes rendered by sharp (no
 * text, so no font is needed), each picture the same on every start.
 */
import sharp from 'sharp';

export interface Picture {
  /** the file's name in the media library: how a later start finds it again */
  name: string;
  alternativeText: string;
  mime: 'image/png' | 'image/jpeg';
  render(): Promise<Buffer>;
}

/** `#rrggbb` for a hue (0–360) at a saturation and lightness (0–1): librsvg's CSS support varies. */
function hsl(hue: number, s: number, l: number): string {
  const k = (n: number): number => (n + hue / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number): string =>
    Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))))
      .toString(16)
      .padStart(2, '0');
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

const svg = (width: number, height: number, body: string): Buffer =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`);

const gradient = (hue: number): string =>
  `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
  `<stop offset="0" stop-color="${hsl(hue, 0.7, 0.6)}"/><stop offset="1" stop-color="${hsl(hue + 50, 0.65, 0.3)}"/>` +
  '</linearGradient></defs>';

/** A 960×540 cover: a gradient with a few soft circles and a horizon, in the article's hue. */
export function cover(name: string, hue: number, alternativeText: string): Picture {
  const soft = (opacity: number, fill: string): string => `fill="${fill}" fill-opacity="${opacity}"`;
  const circles = [0, 1, 2, 3]
    .map((i) => {
      const r = 60 + ((hue * (i + 3)) % 140);
      return `<circle cx="${120 + i * 230}" cy="${140 + ((hue + i * 97) % 220)}" r="${r}" ${soft(0.14, '#fff')}/>`;
    })
    .join('');
  const horizon = `<path d="M0 420 Q240 ${340 + (hue % 60)} 480 400 T960 380 V540 H0 Z" ${soft(0.18, '#000')}/>`;
  const body = `${gradient(hue)}<rect width="960" height="540" fill="url(#g)"/>${circles}${horizon}`;
  return {
    name,
    alternativeText,
    mime: 'image/jpeg',
    render: () =>
      sharp(svg(960, 540, body))
        .jpeg({ quality: 82 })
        .toBuffer(),
  };
}

/** A 256×256 avatar: a face of circles on the author's colour. */
export function avatar(name: string, hue: number, alternativeText: string): Picture {
  const face =
    `<rect width="256" height="256" fill="${hsl(hue, 0.55, 0.85)}"/>` +
    `<circle cx="128" cy="128" r="92" fill="${hsl(hue, 0.6, 0.5)}"/>` +
    '<circle cx="96" cy="108" r="11" fill="#fff"/><circle cx="160" cy="108" r="11" fill="#fff"/>' +
    '<path d="M86 152 Q128 192 170 152" stroke="#fff" stroke-width="10" fill="none" stroke-linecap="round"/>';
  return {
    name,
    alternativeText,
    mime: 'image/png',
    render: () =>
      sharp(svg(256, 256, face))
        .png()
        .toBuffer(),
  };
}

/** A 64×64 favicon: a rounded square with a V-shaped mark. */
export function favicon(name: string, alternativeText: string): Picture {
  const mark =
    `<rect width="64" height="64" rx="14" fill="${hsl(262, 0.6, 0.45)}"/>` +
    '<path d="M16 18 L32 48 L48 18" stroke="#fff" stroke-width="7" fill="none" stroke-linejoin="round"/>';
  return {
    name,
    alternativeText,
    mime: 'image/png',
    render: () =>
      sharp(svg(64, 64, mark))
        .png()
        .toBuffer(),
  };
}
