// The line chart of daily figures (Recharts), loaded on demand: the page and its figures show
// before this chunk arrives. People using a screen reader get the figures from DailyFigures.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DailyRow, Series } from './DailyFigures';

export default function DailyChart(props: { rows: DailyRow[]; series: Series[] }) {
  return (
    <ResponsiveContainer width="100%" height={280}>
      <LineChart data={props.rows} margin={{ top: 8, right: 16, bottom: 8, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" stroke="#dee2e6" />
        <XAxis dataKey="label" tick={{ fontSize: 12, fill: '#495057' }} minTickGap={16} />
        <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: '#495057' }} width={40} />
        <Tooltip />
        <Legend wrapperStyle={{ fontSize: 13 }} />
        {props.series.map((s) => (
          <Line key={s.key} type="linear" dataKey={s.key} name={s.label} stroke={s.color} strokeWidth={2} dot={false} isAnimationActive={false} />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
