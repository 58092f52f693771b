import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/**
 * The drawing of tickets resolved per day (recharts, docs/decisions/0266): its own chunk, loaded
 * by ./resolved-per-day.tsx when the card comes near the screen. It fills the box it is given.
 */
export default function ResolvedChart({ rows, series }: { rows: Array<{ label: string; count: number }>; series: string }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={rows} margin={{ top: 4, right: 4, bottom: 4, left: -20 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--colors-border)" />
        <XAxis dataKey="label" tick={{ fontSize: 11, fill: 'var(--colors-fg-muted)' }} interval="preserveStartEnd" />
        <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: 'var(--colors-fg-muted)' }} />
        <Tooltip />
        <Bar dataKey="count" name={series} fill="currentColor" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
