import {
  forwardRef,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type WheelEvent,
} from 'react';
import { css, cx } from '#styled-system/css';
import { FONT_SIZE, labelLines, LINE_HEIGHT, type DiagramLayout, type LaidOutEdge, type LaidOutState } from './layout.ts';

/** What to emphasise: the live actor's states, and the states and transitions of a chosen path. */
export interface Highlight {
  liveStates: ReadonlySet<string>;
  pathStates: ReadonlySet<string>;
  pathTransitions: ReadonlySet<string>;
}

export const noHighlight: Highlight = { liveStates: new Set(), pathStates: new Set(), pathTransitions: new Set() };

interface View {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface StatechartHandle {
  zoom(factor: number): void;
  fit(): void;
  svg(): SVGSVGElement | null;
}

const ZOOM_STEP = 1.25;
const MIN_SCALE = 0.05;
const MAX_SCALE = 8;

const s = {
  frame: css({
    display: 'block',
    width: '100%',
    height: 'auto',
    maxHeight: '75vh',
    minHeight: '320px',
    bg: 'bg.canvas',
    borderWidth: '1px',
    borderColor: 'border',
    borderRadius: 'md',
    cursor: 'grab',
    touchAction: 'none',
    _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' },
  }),
  state: css({ fill: 'bg.surface', stroke: 'border.strong', strokeWidth: 1.5 }),
  region: css({ fill: 'transparent', stroke: 'border.strong', strokeWidth: 1, strokeDasharray: '6 4' }),
  root: css({ fill: 'bg.subtle', stroke: 'border', strokeWidth: 1 }),
  live: css({ fill: 'success.lighter', stroke: 'success.main', strokeWidth: 3 }),
  onPath: css({ fill: 'primary.lighter', stroke: 'primary.main', strokeWidth: 3 }),
  name: css({ fill: 'fg.default', fontWeight: 'bold' }),
  detail: css({ fill: 'fg.muted' }),
  edge: css({ fill: 'none', stroke: 'fg.muted', strokeWidth: 1.25 }),
  edgeOnPath: css({ fill: 'none', stroke: 'primary.main', strokeWidth: 3 }),
  arrow: css({ fill: 'fg.muted' }),
  arrowOnPath: css({ fill: 'primary.main' }),
  labelBg: css({ fill: 'bg.canvas', opacity: 0.9 }),
  label: css({ fill: 'fg.default' }),
  labelOnPath: css({ fill: 'primary.main', fontWeight: 'bold' }),
  initial: css({ fill: 'fg.default' }),
};

function fitView(layout: DiagramLayout): View {
  return { x: 0, y: 0, width: Math.max(layout.width, 1), height: Math.max(layout.height, 1) };
}

function StateBox({ item, highlight }: { item: LaidOutState; highlight: Highlight }) {
  const { state } = item;
  const live = highlight.liveStates.has(state.id);
  const onPath = highlight.pathStates.has(state.id);
  const base = state.parentId === null ? s.root : state.region ? s.region : s.state;
  const className = live ? s.live : onPath ? s.onPath : base;
  const title = state.tags.length ? `${state.key} (${state.tags.join(', ')})` : state.key;
  return (
    <g data-state={state.id} data-live={live || undefined} data-on-path={onPath || undefined} data-type={state.type} data-region={state.region || undefined}>
      <rect x={item.x} y={item.y} width={item.width} height={item.height} rx={state.region ? 4 : 10} className={className} />
      {state.type === 'final' ? (
        <rect x={item.x + 4} y={item.y + 4} width={item.width - 8} height={item.height - 8} rx={7} className={cx(className, css({ fill: 'none' }))} />
      ) : null}
      <text x={item.x + 12} y={item.y + 18} fontSize={FONT_SIZE} className={s.name}>
        {title}
      </text>
      {item.details.map((line, index) => (
        <text key={line + index} x={item.x + 12} y={item.y + 18 + (index + 1) * LINE_HEIGHT} fontSize={FONT_SIZE - 1} className={s.detail}>
          {line}
        </text>
      ))}
    </g>
  );
}

function Edge({ edge, highlight, markerId }: { edge: LaidOutEdge; highlight: Highlight; markerId: string }) {
  const onPath = edge.transitions.some((t) => highlight.pathTransitions.has(t.key));
  const d = edge.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
  return (
    <g data-edge={edge.id} data-on-path={onPath || undefined}>
      <path d={d} className={onPath ? s.edgeOnPath : s.edge} markerEnd={`url(#${markerId}${onPath ? '-path' : ''})`} />
      {edge.label ? (
        <>
          <rect x={edge.label.x - 2} y={edge.label.y} width={edge.label.width} height={edge.label.height} rx={3} className={s.labelBg} />
          {edge.transitions.map((t, index) => {
            const taken = highlight.pathTransitions.has(t.key);
            const lines = labelLines(t);
            const before = edge.transitions.slice(0, index).reduce((n, previous) => n + labelLines(previous).length, 0);
            return (
              <text
                key={t.key + index}
                data-transition={t.key}
                data-label={t.label}
                data-on-path={taken || undefined}
                fontSize={FONT_SIZE - 1}
                className={taken ? s.labelOnPath : s.label}
              >
                {lines.map((line, i) => (
                  <tspan key={i} x={edge.label!.x + 2} y={edge.label!.y + (before + i + 1) * LINE_HEIGHT - 3}>
                    {line}
                  </tspan>
                ))}
              </text>
            );
          })}
        </>
      ) : null}
    </g>
  );
}

/**
 * The laid-out statechart as SVG with zoom and pan: wheel, drag, keyboard (+ − 0 and arrows)
 * and the buttons of the page (through the handle). Always drawn left to right: the content is
 * code and geometry, so an rtl page keeps the diagram as it is (docs/decisions/0070).
 */
export const StatechartSvg = forwardRef<StatechartHandle, { layout: DiagramLayout; highlight: Highlight; label: string; describedBy?: string }>(
  function StatechartSvg({ layout, highlight, label, describedBy }, ref) {
    const svgRef = useRef<SVGSVGElement>(null);
    const [view, setView] = useState<View>(() => fitView(layout));
    const drag = useRef<{ x: number; y: number; view: View } | null>(null);
    const markerId = `arrow-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;

    useEffect(() => setView(fitView(layout)), [layout]);

    const zoom = useCallback(
      (factor: number) =>
        setView((v) => {
          const full = fitView(layout);
          const scale = Math.min(Math.max(full.width / (v.width / factor), MIN_SCALE), MAX_SCALE);
          const width = full.width / scale;
          const height = (v.height / v.width) * width;
          return { x: v.x + (v.width - width) / 2, y: v.y + (v.height - height) / 2, width, height };
        }),
      [layout],
    );
    const pan = useCallback((dx: number, dy: number) => setView((v) => ({ ...v, x: v.x + dx * v.width, y: v.y + dy * v.height })), []);
    const fit = useCallback(() => setView(fitView(layout)), [layout]);

    useImperativeHandle(ref, () => ({ zoom, fit, svg: () => svgRef.current }), [zoom, fit]);

    const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
      const actions: Record<string, () => void> = {
        '+': () => zoom(ZOOM_STEP),
        '=': () => zoom(ZOOM_STEP),
        '-': () => zoom(1 / ZOOM_STEP),
        '0': fit,
        ArrowLeft: () => pan(-0.1, 0),
        ArrowRight: () => pan(0.1, 0),
        ArrowUp: () => pan(0, -0.1),
        ArrowDown: () => pan(0, 0.1),
      };
      const action = actions[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };

    const onWheel = (event: WheelEvent<SVGSVGElement>) => {
      if (event.deltaY === 0) return;
      zoom(event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP);
    };

    const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
      drag.current = { x: event.clientX, y: event.clientY, view };
      event.currentTarget.setPointerCapture?.(event.pointerId);
    };
    const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
      const start = drag.current;
      const box = svgRef.current?.getBoundingClientRect();
      if (!start || !box || box.width === 0) return;
      // With `meet`, one screen pixel is the larger of the two ratios in diagram units.
      const unit = Math.max(start.view.width / box.width, start.view.height / box.height);
      setView({ ...start.view, x: start.view.x - (event.clientX - start.x) * unit, y: start.view.y - (event.clientY - start.y) * unit });
    };
    const onPointerUp = () => {
      drag.current = null;
    };

    // Wheel zoom must not scroll the page: React's wheel listener is passive, so stop it natively.
    useEffect(() => {
      const svg = svgRef.current;
      if (!svg) return;
      const stop = (event: Event) => event.preventDefault();
      svg.addEventListener('wheel', stop, { passive: false });
      return () => svg.removeEventListener('wheel', stop);
    }, []);

    const scale = Math.round((fitView(layout).width / view.width) * 100);

    return (
      <svg
        ref={svgRef}
        role="img"
        aria-label={label}
        aria-describedby={describedBy}
        tabIndex={0}
        direction="ltr"
        viewBox={`${view.x} ${view.y} ${view.width} ${view.height}`}
        preserveAspectRatio="xMidYMid meet"
        className={s.frame}
        style={{ aspectRatio: `${Math.max(layout.width, 1)} / ${Math.max(layout.height, 1)}` }}
        fontFamily="inherit"
        data-testid="statechart"
        data-scale={scale}
        onKeyDown={onKeyDown}
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
      >
        <defs>
          <marker id={markerId} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
            <path d="M0 0 L10 5 L0 10 z" className={s.arrow} />
          </marker>
          <marker id={`${markerId}-path`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
            <path d="M0 0 L10 5 L0 10 z" className={s.arrowOnPath} />
          </marker>
        </defs>
        {layout.states.map((item) => (
          <StateBox key={item.state.id} item={item} highlight={highlight} />
        ))}
        {layout.initials.map((initial) => (
          <circle
            key={initial.parentId}
            data-initial={initial.parentId}
            cx={initial.x + initial.width / 2}
            cy={initial.y + initial.height / 2}
            r={initial.width / 2}
            className={s.initial}
          />
        ))}
        {layout.edges.map((edge) => (
          <Edge key={edge.id} edge={edge} highlight={highlight} markerId={markerId} />
        ))}
      </svg>
    );
  },
);
