import { useId, useMemo, useState, type ReactNode } from 'react';
import { Popover as ArkPopover } from '@ark-ui/react/popover';
import { Portal } from '@ark-ui/react/portal';
import { createTreeCollection, TreeView, useTreeViewContext, useTreeViewNodeContext } from '@ark-ui/react/tree-view';
import { css, sva } from '#styled-system/css';
import { controlStyle } from './field.tsx';
import { CheckMark } from './check-mark.tsx';
import { selectRecipe } from './select.tsx';
import { useDir } from './use-dir.ts';

/** One node of a tree to choose from (a category and its sub-categories). */
export interface TreeOption {
  value: string;
  label: string;
  children?: TreeOption[];
}

interface Node {
  value: string;
  label: string;
  children?: Node[];
}

const ROOT = '\u2400root';

const treeRecipe = sva({
  slots: ['content', 'clear', 'tree', 'node', 'indicator', 'check'],
  base: {
    content: {
      position: 'relative',
      zIndex: 'dropdown',
      minWidth: '16rem',
      maxWidth: 'min(28rem, 100vw)',
      maxHeight: 'min(24rem, var(--available-height, 24rem))',
      overflowY: 'auto',
      p: '1',
      borderRadius: 'md',
      borderWidth: '1px',
      borderColor: 'border',
      bg: 'bg.surface',
      color: 'fg.default',
      boxShadow: 'lg',
      outline: 'none',
    },
    clear: {
      display: 'flex',
      width: '100%',
      px: '3',
      py: '2',
      fontSize: 'sm',
      textAlign: 'start',
      color: 'fg.muted',
      borderRadius: 'sm',
      cursor: 'pointer',
      _hover: { bg: 'bg.hover' },
      _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '-2px' },
    },
    tree: { display: 'flex', flexDirection: 'column' },
    node: {
      display: 'flex',
      alignItems: 'center',
      gap: '1',
      py: '1.5',
      pe: '3',
      // Each level one step in; Ark gives every node its depth.
      ps: 'calc(var(--depth, 1) * 1rem)',
      fontSize: 'sm',
      borderRadius: 'sm',
      cursor: 'pointer',
      outline: 'none',
      _hover: { bg: 'bg.hover' },
      '&[data-focus]': { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '-2px' },
      _selected: { fontWeight: 'semibold', color: 'primary.dark', bg: 'primary.lighter' },
    },
    indicator: {
      display: 'inline-flex',
      flexShrink: 0,
      color: 'fg.muted',
      transition: 'transform 0.15s',
      _open: { transform: 'rotate(90deg)' },
      _rtl: { transform: 'scaleX(-1)' },
      '&[data-state=open]:dir(rtl)': { transform: 'rotate(90deg)' },
    },
    check: { ms: 'auto', color: 'primary.main' },
  },
});

function pathTo(nodes: readonly TreeOption[], value: string, trail: TreeOption[] = []): TreeOption[] | null {
  for (const node of nodes) {
    const here = [...trail, node];
    if (node.value === value) return here;
    const below = node.children ? pathTo(node.children, value, here) : null;
    if (below) return below;
  }
  return null;
}

/**
 * The branch's chevron opens and closes it with the pointer without choosing it. Keyboard users
 * have the Right and Left arrows, so it is not a focusable control of its own (no nested buttons).
 */
function BranchChevron({ className, value }: { className?: string; value: string }) {
  const tree = useTreeViewContext();
  const node = useTreeViewNodeContext();
  return (
    <span
      className={className}
      data-state={node.expanded ? 'open' : 'closed'}
      aria-hidden="true"
      onClick={(event) => {
        event.stopPropagation();
        if (node.expanded) tree.collapse([value]);
        else tree.expand([value]);
      }}
    >
      <svg width="16" height="16" viewBox="0 0 24 24" fill="currentColor" focusable="false">
        <path d="M10 7l5 5-5 5z" />
      </svg>
    </span>
  );
}

function Branch({ node, indexPath, classes }: { node: Node; indexPath: number[]; classes: ReturnType<typeof treeRecipe> }) {
  return (
    <TreeView.NodeProvider node={node} indexPath={indexPath}>
      {node.children?.length ? (
        <TreeView.Branch>
          <TreeView.BranchControl className={classes.node}>
            <BranchChevron className={classes.indicator} value={node.value} />
            <TreeView.BranchText>{node.label}</TreeView.BranchText>
            <TreeView.NodeContext>{(state) => (state.selected ? <CheckMark className={classes.check} /> : null)}</TreeView.NodeContext>
          </TreeView.BranchControl>
          <TreeView.BranchContent>
            {node.children.map((child, index) => (
              <Branch key={child.value} node={child} indexPath={[...indexPath, index]} classes={classes} />
            ))}
          </TreeView.BranchContent>
        </TreeView.Branch>
      ) : (
        <TreeView.Item className={classes.node}>
          {/* Leaves line up with the branches' text, past the branch indicator's width. */}
          <span className={css({ width: '16px', flexShrink: 0 })} aria-hidden="true" />
          <TreeView.ItemText>{node.label}</TreeView.ItemText>
          <TreeView.NodeContext>{(state) => (state.selected ? <CheckMark className={classes.check} /> : null)}</TreeView.NodeContext>
        </TreeView.Item>
      )}
    </TreeView.NodeProvider>
  );
}

export interface TreeSelectFieldProps {
  label: ReactNode;
  value: string;
  onValueChange: (value: string) => void;
  nodes: readonly TreeOption[];
  /** Shown when nothing is chosen, and offered first in the panel to clear the choice. */
  placeholder: string;
  /** The tree's accessible name inside the panel. */
  treeLabel: string;
  hint?: ReactNode;
  testId?: string;
}

/**
 * One node of a tree (Ark UI Popover + TreeView): the button shows the chosen node's path
 * ("Physics › Optics"); it opens a panel with "any" first, then the tree. Arrow keys move,
 * Right/Left open and close a branch, Enter or Space chooses any node (a branch too: it stands
 * for its whole subtree), Escape closes and gives focus back to the button. The branches on the
 * way to the chosen node start open, so the choice is in view.
 */
export function TreeSelectField({ label, value, onValueChange, nodes, placeholder, treeLabel, hint, testId }: TreeSelectFieldProps) {
  const dir = useDir();
  const id = useId();
  const fieldClasses = selectRecipe();
  const classes = treeRecipe();
  const [open, setOpen] = useState(false);
  const collection = useMemo(
    () =>
      createTreeCollection<Node>({
        nodeToValue: (node) => node.value,
        nodeToString: (node) => node.label,
        rootNode: { value: ROOT, label: '', children: nodes as Node[] },
      }),
    [nodes],
  );
  const path = value ? pathTo(nodes, value) : null;
  const expanded = useMemo(() => (path ? path.slice(0, -1).map((node) => node.value) : []), [path]);
  const choose = (next: string) => {
    onValueChange(next);
    setOpen(false);
  };

  return (
    <div className={fieldClasses.root} data-testid={testId}>
      <span id={`${id}-label`} className={fieldClasses.label}>
        {label}
      </span>
      <ArkPopover.Root
        open={open}
        onOpenChange={(details) => setOpen(details.open)}
        lazyMount
        unmountOnExit
        portalled
        positioning={{ placement: 'bottom-start', sameWidth: true }}
      >
        <ArkPopover.Trigger
          className={[controlStyle, fieldClasses.trigger].join(' ')}
          aria-labelledby={`${id}-label ${id}-value`}
          aria-describedby={hint ? `${id}-hint` : undefined}
          data-placeholder-shown={path ? undefined : ''}
        >
          <span id={`${id}-value`} className={css({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>
            {path ? path.map((node) => node.label).join(' › ') : placeholder}
          </span>
          <span className={fieldClasses.indicator} data-state={open ? 'open' : 'closed'} aria-hidden="true">
            <svg width="16" height="16" viewBox="0 0 24 24" fill="currentColor" focusable="false">
              <path d="M7 10l5 5 5-5z" />
            </svg>
          </span>
        </ArkPopover.Trigger>
        <Portal>
          <ArkPopover.Positioner className={fieldClasses.positioner}>
            <ArkPopover.Content className={classes.content} aria-label={treeLabel} dir={dir}>
              <button type="button" className={classes.clear} onClick={() => choose('')} aria-pressed={!value}>
                {placeholder}
              </button>
              <TreeView.Root
                collection={collection}
                selectionMode="single"
                selectedValue={value ? [value] : []}
                defaultExpandedValue={expanded}
                defaultFocusedValue={value || undefined}
                expandOnClick={false}
                onSelectionChange={(details) => {
                  const next = details.selectedValue[0];
                  if (next !== undefined) choose(next);
                }}
                dir={dir}
              >
                {/* Ark renders the label as a heading by default; inside a popup it is only the tree's name. */}
                <TreeView.Label asChild>
                  <span className={css({ srOnly: true })}>{treeLabel}</span>
                </TreeView.Label>
                <TreeView.Tree className={classes.tree}>
                  {collection.rootNode.children?.map((node, index) => (
                    <Branch key={node.value} node={node} indexPath={[index]} classes={classes} />
                  ))}
                </TreeView.Tree>
              </TreeView.Root>
            </ArkPopover.Content>
          </ArkPopover.Positioner>
        </Portal>
      </ArkPopover.Root>
      {hint ? (
        <p id={`${id}-hint`} className={fieldClasses.hint}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
