import type { DiagramModel, DiagramState, DiagramTransition } from './diagram-model.ts';

/**
 * The diagram model as Mermaid `stateDiagram-v2` text: composite states for nested states,
 * `--` between the regions of a parallel state, `[*]` for initial and final states, and each
 * transition written inside the lowest state that contains both its ends.
 */
export function toMermaid(model: DiagramModel): string {
  const byId = new Map(model.states.map((s) => [s.id, s]));
  const names = new Map<string, string>();
  const used = new Set<string>();
  for (const s of model.states) {
    let name = s.id.replace(/[^A-Za-z0-9_]/g, '_');
    if (/^\d/.test(name)) name = `s_${name}`;
    while (used.has(name)) name = `${name}_`;
    used.add(name);
    names.set(s.id, name);
  }
  const text = (value: string) => value.replace(/[;#\n]/g, ' ').replace(/"/g, "'");
  const ancestors = (id: string): string[] => {
    const chain: string[] = [];
    for (let s = byId.get(id); s; s = s.parentId ? byId.get(s.parentId) : undefined) chain.push(s.id);
    return chain;
  };
  /** The state whose block holds a transition: the lowest common ancestor of its ends (not an end itself). */
  const home = (t: DiagramTransition): string => {
    const ends = [t.sourceId, ...t.targetIds];
    const chains = ends.map((id) => ancestors(id));
    const common = chains[0].filter((id) => chains.every((chain) => chain.includes(id)) && !ends.includes(id));
    return common[0] ?? model.rootId;
  };
  const byHome = new Map<string, DiagramTransition[]>();
  for (const t of model.transitions) {
    const h = home(t);
    byHome.set(h, [...(byHome.get(h) ?? []), t]);
  }

  const lines: string[] = ['stateDiagram-v2'];
  const emitBody = (state: DiagramState, indent: string) => {
    const children = state.children.map((id) => byId.get(id)!);
    if (state.type === 'parallel') {
      children.forEach((child, index) => {
        if (index > 0) lines.push(`${indent}--`);
        emitState(child, indent);
      });
    } else {
      if (state.initialId) lines.push(`${indent}[*] --> ${names.get(state.initialId)}`);
      for (const child of children) emitState(child, indent);
    }
    for (const t of byHome.get(state.id) ?? []) {
      for (const target of t.targetIds) lines.push(`${indent}${names.get(t.sourceId)} --> ${names.get(target)} : ${text(t.label)}`);
    }
  };
  const emitState = (state: DiagramState, indent: string) => {
    const name = names.get(state.id)!;
    lines.push(`${indent}state "${text(state.key)}" as ${name}`);
    const notes = [
      ...state.entry.map((a) => `entry / ${a}`),
      ...state.exit.map((a) => `exit / ${a}`),
      ...state.invokes.map((src) => `invoke ${src}`),
      ...state.internal.map((t) => t.label),
    ];
    for (const note of notes) lines.push(`${indent}${name} : ${text(note)}`);
    if (state.children.length) {
      lines.push(`${indent}state ${name} {`);
      emitBody(state, `${indent}  `);
      lines.push(`${indent}}`);
    }
    if (state.type === 'final') lines.push(`${indent}${name} --> [*]`);
  };

  const root = byId.get(model.rootId)!;
  emitBody(root, '  ');
  // Mermaid has no note on the diagram itself: the machine's own internal transitions go beside its first state.
  const anchor = root.initialId ?? root.children[0];
  if (anchor) for (const t of root.internal) lines.push(`  note right of ${names.get(anchor)} : ${text(`${root.key} - ${t.label}`)}`);
  return `${lines.join('\n')}\n`;
}
