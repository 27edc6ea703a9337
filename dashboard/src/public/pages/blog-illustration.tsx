import type { TArticleImage } from '../blog/articles.ts';

/**
 * An article's picture, drawn inline in the page's colours (no image file, no request): a photo
 * grid with a favourite for photography, a file with comments and approvals for agency delivery,
 * a page with its views rising for sales. Decorative: the article's title says what it is about.
 */
export function BlogIllustration({ image, className }: { image: TArticleImage; className?: string }) {
  return (
    <svg
      className={`blog-illustration ${className ?? ''}`}
      viewBox="0 0 600 315"
      width="600"
      height="315"
      preserveAspectRatio="xMidYMid slice"
      aria-hidden="true"
      focusable="false"
    >
      <rect className="blog-illustration__bg" width="600" height="315" />
      <circle className="blog-illustration__glow" cx="470" cy="70" r="150" />
      {image === 'gallery' && <Gallery />}
      {image === 'delivery' && <Delivery />}
      {image === 'sales' && <Sales />}
    </svg>
  );
}

function Photo({ x, y, w, h }: { x: number; y: number; w: number; h: number }) {
  return (
    <g>
      <rect className="blog-illustration__card" x={x} y={y} width={w} height={h} rx="10" />
      <circle className="blog-illustration__sun" cx={x + w * 0.72} cy={y + h * 0.3} r={Math.min(w, h) * 0.1} />
      <path
        className="blog-illustration__hill"
        d={`M${x} ${y + h * 0.8} L${x + w * 0.35} ${y + h * 0.45} L${x + w * 0.6} ${y + h * 0.68} L${x + w * 0.78} ${y + h * 0.55} L${x + w} ${y + h * 0.78} V${y + h} H${x} Z`}
      />
    </g>
  );
}

function Gallery() {
  return (
    <g>
      <Photo x={70} y={52} w={150} h={110} />
      <Photo x={235} y={52} w={110} h={110} />
      <Photo x={360} y={52} w={170} h={110} />
      <Photo x={70} y={177} w={110} h={90} />
      <Photo x={195} y={177} w={170} h={90} />
      <Photo x={380} y={177} w={150} h={90} />
      <circle className="blog-illustration__badge" cx="345" cy="182" r="24" />
      <path className="blog-illustration__heart" d="M345 194 l-11-11 a6.5 6.5 0 0 1 11-7 a6.5 6.5 0 0 1 11 7 z" />
    </g>
  );
}

function Delivery() {
  return (
    <g>
      <rect className="blog-illustration__card" x="90" y="40" width="230" height="240" rx="14" />
      <rect className="blog-illustration__line" x="118" y="72" width="120" height="14" rx="7" />
      <rect className="blog-illustration__soft" x="118" y="100" width="174" height="90" rx="8" />
      <rect className="blog-illustration__line" x="118" y="206" width="174" height="10" rx="5" />
      <rect className="blog-illustration__line" x="118" y="226" width="130" height="10" rx="5" />
      <circle className="blog-illustration__badge" cx="310" cy="56" r="26" />
      <path className="blog-illustration__check" d="M298 56 l8 8 l15 -16" />
      <rect className="blog-illustration__card" x="345" y="92" width="190" height="64" rx="14" />
      <rect className="blog-illustration__line" x="365" y="112" width="120" height="10" rx="5" />
      <rect className="blog-illustration__line" x="365" y="130" width="80" height="10" rx="5" />
      <path className="blog-illustration__card" d="M360 156 l-4 22 l22 -22 z" />
      <rect className="blog-illustration__card" x="365" y="196" width="170" height="56" rx="14" />
      <rect className="blog-illustration__accent" x="385" y="215" width="56" height="18" rx="9" />
      <rect className="blog-illustration__line" x="451" y="219" width="60" height="10" rx="5" />
    </g>
  );
}

function Sales() {
  return (
    <g>
      <rect className="blog-illustration__card" x="70" y="40" width="330" height="235" rx="14" />
      <circle className="blog-illustration__line" cx="94" cy="62" r="5" />
      <circle className="blog-illustration__line" cx="110" cy="62" r="5" />
      <circle className="blog-illustration__line" cx="126" cy="62" r="5" />
      <rect className="blog-illustration__line" x="96" y="96" width="150" height="14" rx="7" />
      <path className="blog-illustration__chart" d="M100 240 L160 215 L210 226 L265 180 L320 165 L370 118" />
      <circle className="blog-illustration__badge" cx="370" cy="118" r="9" />
      <rect className="blog-illustration__card" x="425" y="95" width="120" height="120" rx="14" />
      {[0, 1, 2, 3, 4].flatMap((row) =>
        [0, 1, 2, 3, 4]
          .filter((col) => (row * 7 + col * 3 + row * col) % 3 !== 1)
          .map((col) => <rect key={`${row}-${col}`} className="blog-illustration__qr" x={441 + col * 18} y={111 + row * 18} width="14" height="14" rx="2" />),
      )}
    </g>
  );
}
