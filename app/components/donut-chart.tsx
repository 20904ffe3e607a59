/** A donut chart (inner radius 0.7, outer 0.9 of the half-size) with its legend and a text alternative. */
export interface DonutSlice {
  label: string;
  value: number;
  color: string;
}

const WIDTH = 400;
const HEIGHT = 300;

export function DonutChart({ title, slices }: { title: string; slices: DonutSlice[] }) {
  const total = slices.reduce((sum, slice) => sum + slice.value, 0);
  const radius = (Math.min(WIDTH, HEIGHT) / 2) * 0.8;
  const stroke = (Math.min(WIDTH, HEIGHT) / 2) * 0.2;
  const circumference = 2 * Math.PI * radius;
  const summary = slices.map((slice) => `${slice.label}: ${slice.value}`).join(', ');
  let offset = 0;
  return (
    <figure className="donut" data-testid={`donut-${title}`}>
      <figcaption>
        <h2>{title}</h2>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${title}: ${summary}`}>
        <circle
          cx={WIDTH / 2}
          cy={HEIGHT / 2}
          r={radius}
          fill="none"
          stroke="var(--border)"
          strokeWidth={stroke}
        />
        {total > 0
          ? slices.map((slice) => {
              const length = (slice.value / total) * circumference;
              const dash = (
                <circle
                  key={slice.label}
                  cx={WIDTH / 2}
                  cy={HEIGHT / 2}
                  r={radius}
                  fill="none"
                  stroke={slice.color}
                  strokeWidth={stroke}
                  strokeDasharray={`${length} ${circumference - length}`}
                  strokeDashoffset={-offset}
                  transform={`rotate(-90 ${WIDTH / 2} ${HEIGHT / 2})`}
                />
              );
              offset += length;
              return dash;
            })
          : null}
        <text
          x={WIDTH / 2}
          y={HEIGHT / 2}
          textAnchor="middle"
          dominantBaseline="middle"
          fill="var(--text)"
          fontSize="28"
        >
          {total}
        </text>
      </svg>
      <ul className="donut-legend">
        {slices.map((slice) => (
          <li key={slice.label}>
            <span className="swatch" style={{ background: slice.color }} aria-hidden="true" />
            {slice.label}: <strong>{slice.value}</strong>
          </li>
        ))}
      </ul>
    </figure>
  );
}
