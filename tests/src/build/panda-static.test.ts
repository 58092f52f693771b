import { describe, expect, it } from 'vitest';
import { css, cva } from '#styled-system/css';
import { replaceStaticCalls } from '../../../scripts/vite/panda-static.ts';
import { pureReactRouter } from '../../../scripts/vite/react-router-pure.ts';

const runtime = { css, cva } as unknown as Parameters<typeof replaceStaticCalls>[1];

/** Runs a module's code with `css`/`cva` given, returning what it exports as `out`. */
const evaluate = (code: string) =>
  new Function('css', 'cva', `${code.replace(/^import .*$/m, '').replace('export const out =', 'return')}`)(css, cva) as unknown;

describe('class names resolved at build time (docs/decisions/0180)', () => {
  it('should replace a literal css() call by the class names the runtime gives', () => {
    const code = `import { css } from '#styled-system/css';\nconst wide = \`@media (min-width: \${1070}px)\`;\nexport const out = css({ display: 'flex', gap: '2', mt: -1, [wide]: { flexDirection: 'row' }, _hover: { color: 'fg.muted' } });`;
    const replaced = replaceStaticCalls(code, runtime)!;
    expect(replaced).not.toMatch(/css\(/);
    expect(evaluate(replaced)).toBe(
      css({ display: 'flex', gap: '2', mt: -1, '@media (min-width: 1070px)': { flexDirection: 'row' }, _hover: { color: 'fg.muted' } }),
    );
  });

  it('should unfold a conditional value into one string per branch, keeping the test as written', () => {
    const code = `import { css } from '#styled-system/css';\nexport const out = (last) => css({ color: last ? 'fg.default' : 'fg.muted', fontWeight: 'bold' });`;
    const replaced = replaceStaticCalls(code, runtime)!;
    expect(replaced).toContain('(last) ?');
    const pick = evaluate(replaced) as (last: boolean) => string;
    expect(pick(true)).toBe(css({ color: 'fg.default', fontWeight: 'bold' }));
    expect(pick(false)).toBe(css({ color: 'fg.muted', fontWeight: 'bold' }));
  });

  it('should leave calls with computed values to the runtime', () => {
    const code = `import { css } from '#styled-system/css';\nexport const out = (width) => css({ width, display: 'block' });`;
    expect(replaceStaticCalls(code, runtime)).toBeNull();
  });

  it('should answer a literal cva() recipe from a table equal to the runtime recipe for every combination', () => {
    const config = {
      base: { display: 'inline-flex', px: '4' },
      variants: { variant: { solid: { bg: 'primary.main' }, ghost: { bg: 'transparent' } }, size: { sm: { px: '3' }, lg: { px: '6' } } },
      defaultVariants: { variant: 'solid', size: 'sm' },
      compoundVariants: [{ variant: 'ghost', size: 'lg', css: { color: 'fg.muted' } }],
    } as const;
    const code = `import { cva } from '#styled-system/css';\nexport const out = cva(${JSON.stringify(config)});`;
    const replaced = replaceStaticCalls(code, runtime)!;
    expect(replaced).not.toMatch(/cva\(/);
    const table = evaluate(replaced) as (props?: Record<string, string | undefined>) => string;
    const recipe = cva(config as never) as unknown as (props?: Record<string, string | undefined>) => string;
    for (const variant of [undefined, 'solid', 'ghost'])
      for (const size of [undefined, 'sm', 'lg']) expect(table({ variant, size }), `${variant} ${size}`).toBe(recipe({ variant, size }));
    expect(table()).toBe(recipe());
  });
});

describe('react-router’s unused components tree-shaken (docs/decisions/0180)', () => {
  it('should mark Link, NavLink and Form pure and drop the displayName lines of components only', () => {
    const code = [
      'var Link = React10.forwardRef(',
      'Link.displayName = "Link";',
      'var Form = React10.forwardRef(',
      'Form.displayName = "Form";',
      'ScrollRestoration.displayName = "ScrollRestoration";',
      'DataRouterContext.displayName = "DataRouter";',
    ].join('\n');
    expect(pureReactRouter(code).split('\n')).toEqual([
      'var Link = /* @__PURE__ */ React10.forwardRef(',
      '',
      'var Form = /* @__PURE__ */ React10.forwardRef(',
      '',
      '',
      'DataRouterContext.displayName = "DataRouter";',
    ]);
  });
});
