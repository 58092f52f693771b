import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { createActor } from 'xstate';
import { ticketLifecycleMachine, ticketStatusNames } from '#machines/ticket-lifecycle.machine.ts';
import { registerLiveActor } from '#src/app/live-actors.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';

const mocks = vi.hoisted(() => ({ coverage: vi.fn(), flows: vi.fn(), saveFile: vi.fn(), success: vi.fn(), warning: vi.fn() }));
vi.mock('#src/features/machines/api/machines-api.ts', () => ({ machinesApi: { coverage: mocks.coverage, flows: mocks.flows } }));
vi.mock('#src/lib/save-file.ts', () => ({ saveFile: mocks.saveFile }));
vi.mock('#src/app/notifications/notify.ts', () => ({ notify: { success: mocks.success, warning: mocks.warning } }));

const { default: MachinesPage } = await import('#src/features/machines/machines-page.tsx');
const { MachineView } = await import('#src/features/machines/machine-view.tsx');
const { fixtureMachine } = await import('#tests/fixtures/fixture-machine.ts');

const { ticketLifecyclePaths } = await import('#machines/ticket-lifecycle.model.ts');
const { pathKey } = await import('#machines/graph-coverage.ts');
type TestPath = import('#src/features/machines/machine-catalogue.ts').TestPath;
type MachineCoverage = import('#src/features/machines/api/machines-api.ts').MachineCoverage;

/** The key of the lifecycle path claim → hold → resume, as the replays record it. */
const claimHoldResume = pathKey(
  ticketLifecyclePaths().find(
    (p) =>
      p.steps
        .slice(1)
        .map((s) => s.event.type)
        .join() === 'ticket.claim,ticket.hold,ticket.resume',
  )!,
);

const lifecycleReport = {
  machineId: 'ticketLifecycle',
  states: { covered: 7, total: 7, uncovered: [] },
  transitions: { covered: 23, total: 23, uncovered: [] },
  generatedAt: '2026-11-22T17:00:00.000Z',
  verified: { covered: 23, total: 23, uncovered: [] },
  replays: [
    { system: 'http', independent: true, ranAt: '2026-11-25T07:00:00.000Z', passed: 1, failed: 0, results: { [claimHoldResume]: 'passed' } },
    { system: 'chromium', independent: false, ranAt: '2026-11-25T07:10:00.000Z', passed: 0, failed: 1, results: { [claimHoldResume]: 'failed' } },
  ],
  mutationScore: null,
};

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['machines', 'ui', 'errors']);
});

beforeEach(() => {
  mocks.coverage.mockResolvedValue([lifecycleReport]);
  mocks.flows.mockResolvedValue([]);
});

afterEach(() => {
  vi.clearAllMocks();
});

function renderPage(machineId?: string) {
  const user = userEvent.setup();
  const path = machineId ? `/machines/${machineId}` : '/machines';
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={[path]}>
        <Suspense fallback={null}>
          <Routes>
            <Route path="/machines/:machineId?" element={<MachinesPage />} />
          </Routes>
        </Suspense>
      </MemoryRouter>
    </I18nextProvider>,
  );
  return user;
}

const diagram = () => screen.findByRole('img', { name: 'Statechart of ticketLifecycle' }, { timeout: 15_000 });
const drawnStates = (svg: Element) => [...svg.querySelectorAll('[data-state]')].map((g) => g.getAttribute('data-state'));

describe('the machines page', { timeout: 20_000 }, () => {
  it('should list every machine and draw the ticket lifecycle with its seven statuses and its coverage', async () => {
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Machines' })).toBeInTheDocument();
    const list = screen.getByRole('navigation', { name: 'Machines' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([
      'ticketLifecycle',
      'ticketView',
      'version-check',
      'toast-queue',
      'toast-timer',
      'snackbar',
      'pagedSearch',
      'auth-session',
      'realtime-connection',
      'projectStatus',
      'examStatus',
      'season',
      'registration',
      'delivery',
      'deliverySitting',
      'deliveryAutosave',
      'deliveryConnection',
      'deliveryCountdown',
      'deliveryCalculator',
      'result',
      'paperFlow',
      'dashboard-card',
      'notification-center',
      'itemEditor',
    ]);
    expect(within(list).getByRole('link', { name: 'ticketLifecycle' })).toHaveAttribute('aria-current', 'page');
    const svg = await diagram();
    expect(drawnStates(svg)).toEqual(['ticketLifecycle', ...ticketStatusNames.map((s) => `ticketLifecycle.${s}`)]);
    expect(svg.querySelector('[data-state="ticketLifecycle.Cancelled"]')).toHaveAttribute('data-type', 'final');
    expect(svg.querySelectorAll('[data-initial]')).toHaveLength(1);
    const claim = svg.querySelector('text[data-transition="ticketLifecycle.Open --ticket.claim--> ticketLifecycle.InProgress"]')!;
    expect([...claim.querySelectorAll('tspan')].map((line) => line.textContent)).toEqual(['ticket.claim', '[isPermitted]']);
    expect(claim).toHaveAttribute('data-label', 'ticket.claim [isPermitted]');
    expect(screen.getByTestId('coverage-badge')).toHaveTextContent('States 7/7 · transitions checked independently 23/23');
    expect(screen.queryByTestId('mutation-badge')).toBeNull();
    expect(screen.queryByTestId('coverage-uncovered')).toBeNull();
    expect(screen.getByTestId('mermaid-text').textContent).toMatch(/^stateDiagram-v2\n/);
  });

  it('should list the test paths and highlight the steps of the one clicked', async () => {
    const user = renderPage();
    const svg = await diagram();
    const paths = await screen.findByTestId('path-list', {}, { timeout: 15_000 });
    const claim = within(paths).getByRole('button', { name: 'Highlight path 1: ticket.claim → ticket.hold → ticket.resume ⇒ InProgress' });
    // Which systems the path was replayed against, with the result and the date of the run.
    const replays = within(claim.closest('li')!).getByTestId('path-replays');
    expect([...replays.querySelectorAll('[data-system]')].map((el) => [el.getAttribute('data-system'), el.getAttribute('data-result')])).toEqual([
      ['http', 'passed'],
      ['chromium', 'failed'],
    ]);
    expect(replays).toHaveTextContent(/Server \(HTTP\): passed, .*2026/);
    expect(replays).toHaveTextContent(/Chromium: failed, .*\(checked against the machine only\)/);
    const second = within(paths).getAllByRole('listitem')[1];
    expect(second).toHaveTextContent('Not replayed against a system yet');
    expect(screen.getByText(/paths from the same @xstate\/graph call the tests use/)).toBeInTheDocument();
    await user.click(claim);
    expect(claim).toHaveAttribute('aria-pressed', 'true');
    const onPath = [...svg.querySelectorAll('[data-state][data-on-path]')].map((g) => g.getAttribute('data-state'));
    expect(onPath).toEqual(['ticketLifecycle.Open', 'ticketLifecycle.InProgress', 'ticketLifecycle.OnHold']);
    expect([...svg.querySelectorAll('text[data-on-path]')].map((t) => t.getAttribute('data-transition')).sort()).toEqual([
      'ticketLifecycle.InProgress --ticket.hold--> ticketLifecycle.OnHold',
      'ticketLifecycle.OnHold --ticket.resume--> ticketLifecycle.InProgress',
      'ticketLifecycle.Open --ticket.claim--> ticketLifecycle.InProgress',
    ]);
    expect(
      within(screen.getByTestId('path-steps'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['xstate.init → Open', 'ticket.claim → InProgress', 'ticket.hold → OnHold', 'ticket.resume → InProgress']);
    await user.click(screen.getByRole('button', { name: 'Clear the highlight' }));
    expect(svg.querySelectorAll('[data-on-path]')).toHaveLength(0);
  });

  it('should highlight the current state of a live actor and list its events as they happen', async () => {
    const actor = createActor(ticketLifecycleMachine).start();
    const unregister = registerLiveActor('ticket-under-test', ticketLifecycleMachine, actor);
    try {
      renderPage('ticketLifecycle');
      const svg = await diagram();
      const live = screen.getByTestId('live-actor-ticket-under-test');
      expect(within(live).getByTestId('live-state')).toHaveTextContent('Open');
      expect(svg.querySelector('[data-live]')).toHaveAttribute('data-state', 'ticketLifecycle.Open');
      act(() => actor.send({ type: 'ticket.claim', by: { agent: true } }));
      await waitFor(() => expect(within(live).getByTestId('live-state')).toHaveTextContent('InProgress'));
      expect(svg.querySelector('[data-live]')).toHaveAttribute('data-state', 'ticketLifecycle.InProgress');
      expect(within(within(live).getByTestId('live-events')).getAllByRole('listitem')[0]).toHaveTextContent('ticket.claim');
      await userEvent.click(within(screen.getByTestId('live-panel')).getByRole('checkbox', { name: 'Highlight the live state' }));
      expect(svg.querySelector('[data-live]')).toBeNull();
    } finally {
      unregister();
      actor.stop();
    }
  });

  it('should export the whole diagram as an SVG file and the Mermaid text as a file and to the clipboard', async () => {
    const user = renderPage();
    await diagram();
    await user.click(screen.getByRole('button', { name: 'Export SVG' }));
    expect(mocks.saveFile).toHaveBeenCalledTimes(1);
    const [svgBlob, svgName] = mocks.saveFile.mock.calls[0] as [Blob, string];
    expect(svgName).toBe('ticketLifecycle.svg');
    expect(svgBlob.type).toBe('image/svg+xml');
    const svgText = await svgBlob.text();
    expect(svgText).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svgText).toContain('>Cancelled (finished)<');
    expect(svgText.match(/xmlns=/g)).toHaveLength(1);
    expect(svgText).not.toContain('class=');

    await user.click(screen.getByRole('button', { name: 'Download Mermaid' }));
    const [mmdBlob, mmdName] = mocks.saveFile.mock.calls[1] as [Blob, string];
    expect(mmdName).toBe('ticketLifecycle.mmd');
    expect(await mmdBlob.text()).toContain('ticketLifecycle_Open --> ticketLifecycle_InProgress : ticket.claim [isPermitted]');

    await user.click(screen.getByRole('button', { name: 'Copy Mermaid' }));
    expect(await navigator.clipboard.readText()).toMatch(/^stateDiagram-v2\n {2}\[\*\] --> ticketLifecycle_Open\n/);
    expect(mocks.success).toHaveBeenCalledWith('The Mermaid diagram of ticketLifecycle is on the clipboard.');
  });

  it('should zoom and pan with the keyboard and the buttons, and fit again', async () => {
    const user = renderPage();
    const svg = await diagram();
    const viewBox = () => svg.getAttribute('viewBox')!.split(' ').map(Number);
    const [, , fullWidth] = viewBox();
    expect(svg).toHaveAttribute('data-scale', '100');
    svg.focus();
    await user.keyboard('+');
    expect(svg).toHaveAttribute('data-scale', '125');
    await user.keyboard('{ArrowRight}');
    expect(viewBox()[0]).toBeCloseTo((fullWidth - fullWidth / 1.25) / 2 + (fullWidth / 1.25) * 0.1, 3);
    await user.keyboard('0');
    expect(svg).toHaveAttribute('data-scale', '100');
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(svg).toHaveAttribute('data-scale', '80');
    await user.click(screen.getByRole('button', { name: 'Fit to view' }));
    expect(viewBox()).toEqual([0, 0, fullWidth, viewBox()[3]]);
  });

  it('should list what no test path walks when coverage is incomplete', async () => {
    mocks.coverage.mockResolvedValue([
      {
        machineId: 'snackbar',
        states: { covered: 2, total: 3, uncovered: ['snackbar.closing'] },
        transitions: { covered: 5, total: 5, uncovered: [] },
        generatedAt: null,
        // Every transition walked, but only four by a replay with an independent check: the badge counts those.
        verified: { covered: 4, total: 5, uncovered: ['snackbar.closing --snackbar.open--> snackbar.opened'] },
        replays: [],
        mutationScore: 84.5,
      },
    ]);
    renderPage('snackbar');
    await screen.findByRole('img', { name: 'Statechart of snackbar' }, { timeout: 15_000 });
    expect(screen.getByTestId('coverage-badge')).toHaveTextContent('States 2/3 · transitions checked independently 4/5');
    expect(screen.getByTestId('mutation-badge')).toHaveTextContent('Mutation score 84.5 %');
    const uncovered = screen.getByTestId('coverage-uncovered');
    expect(within(uncovered).getByText('Not walked by any test path')).toBeInTheDocument();
    expect(
      within(uncovered)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['snackbar.closing', 'snackbar.closing --snackbar.open--> snackbar.opened']);
  });

  it('should say "not measured" for a machine the test run left no report for', async () => {
    renderPage('snackbar');
    await screen.findByRole('img', { name: 'Statechart of snackbar' }, { timeout: 15_000 });
    expect(screen.getByTestId('coverage-badge')).toHaveTextContent('Not measured');
  });

  it('should show the diagrams with "coverage unavailable" when the coverage call fails for another reason', async () => {
    mocks.coverage.mockRejectedValue({ statusCode: 500, messages: ['Something went wrong'] });
    renderPage('version-check');
    const svg = await screen.findByRole('img', { name: 'Statechart of version-check' }, { timeout: 15_000 });
    expect(screen.getByTestId('coverage-badge')).toHaveTextContent('Coverage unavailable');
    expect(svg.querySelector('[data-state="version-check.outdated.reloading"]')).toHaveAttribute('data-type', 'final');
  });

  it('should show no diagram to someone the server refuses', async () => {
    mocks.coverage.mockRejectedValue({ statusCode: 403, messages: ['Forbidden'] });
    renderPage();
    expect(await screen.findByText('You need the permission to audit machines to open this page.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Machines' })).toBeNull();
    expect(screen.queryByTestId('statechart')).toBeNull();
  });

  it("should draw a project's review flow compiled from its stored definition, with its model-based paths", async () => {
    mocks.flows.mockResolvedValue([
      {
        projectId: 7,
        projectCode: 'BOARD10',
        projectName: 'Class 10 Board',
        flowId: 42,
        name: 'Item review',
        recordKind: 'item',
        version: 3,
        machineId: 'flow-42',
        definition: {
          stages: [
            { id: 'review', name: 'Subject expert', permission: 'ItemReviewer' },
            { id: 'approve', name: 'Approver', permission: 'ProjectAdmin' },
          ],
          submitPermission: 'ItemAuthor',
          retirePermission: 'ProjectAdmin',
        },
      },
    ]);
    renderPage('flow-42');
    const flows = await screen.findByTestId('project-flows');
    expect(within(flows).getByRole('link', { name: 'BOARD10 · Item review' })).toHaveAttribute('aria-current', 'page');
    const svg = await screen.findByRole('img', { name: 'Statechart of flow-42' }, { timeout: 15_000 });
    // Draft → one state per stage, in order → Approved; Retired is final.
    expect(drawnStates(svg)).toEqual(['flow-42', 'flow-42.Draft', 'flow-42.review', 'flow-42.approve', 'flow-42.Approved', 'flow-42.Retired']);
    expect(screen.getByText(/compileFlow: BOARD10 · Item review, v3/)).toBeInTheDocument();
    const paths = await screen.findByTestId('path-list', {}, { timeout: 15_000 });
    expect(within(paths).getAllByRole('listitem').length).toBeGreaterThan(0);
  });

  it('should list no project flows when the flows call fails, and keep the fixed machines', async () => {
    mocks.flows.mockRejectedValue({ statusCode: 403 });
    renderPage();
    await diagram();
    expect(screen.queryByTestId('project-flows')).toBeNull();
  });

  it('should say so for a machine that is not in the catalogue', async () => {
    renderPage('nope');
    expect(await screen.findByText('There is no machine called nope.')).toBeInTheDocument();
  });
});

describe('a machine drawn from its definition alone', () => {
  it('should draw parallel regions, delays and internal transitions of a machine without test paths', async () => {
    const entry = { id: 'fixture', file: 'tests/fixtures/fixture-machine.ts', load: async () => ({ machine: fixtureMachine() }) };
    render(
      <I18nextProvider i18n={i18n}>
        <MachineView entry={entry} coverage={{ status: 'ready', reports: [] }} />
      </I18nextProvider>,
    );
    const svg = await screen.findByRole('img', { name: 'Statechart of fixture' }, { timeout: 15_000 });
    const regions = [...svg.querySelectorAll('[data-region]')].map((g) => g.getAttribute('data-state'));
    expect(regions).toEqual(['fixture.running.engine', 'fixture.running.radio']);
    // Regions are drawn dashed (their own style), states solid.
    const rectClass = (id: string) => svg.querySelector(`[data-state="${id}"] > rect`)!.getAttribute('class');
    expect(rectClass('fixture.running.engine')).toBe(rectClass('fixture.running.radio'));
    expect(rectClass('fixture.running.engine')).toContain('stk-dsh_6_4');
    expect(rectClass('fixture.idle')).not.toContain('stk-dsh');
    expect(svg.querySelector('[data-state="fixture.running"]')).toHaveAttribute('data-type', 'parallel');
    expect(svg.querySelector('[data-state="fixture.done"]')).toHaveAttribute('data-type', 'final');
    expect(svg.querySelectorAll('[data-initial]')).toHaveLength(3);
    const labels = [...svg.querySelectorAll('text[data-transition]')].map((t) => t.getAttribute('data-label'));
    expect(labels).toEqual(expect.arrayContaining(['after 500 ms', 'after patience = 3000 ms', 'go [and(isReady, hasCount)] / log, count']));
    // The root's targetless transition is written inside the machine's box, not drawn as an arrow.
    expect(within(svg.querySelector('[data-state="fixture"]') as unknown as HTMLElement).getByText('tick / count')).toBeInTheDocument();
    expect(screen.getByText('This machine has no model-based test paths yet.')).toBeInTheDocument();
    expect(screen.getByTestId('coverage-badge')).toHaveTextContent('Not measured');
  });
});

describe('a machine with many test paths', () => {
  /** 120 made-up one-step paths: path 77 alone takes `rare`, paths 3 and 90 were replayed. */
  function manyPaths() {
    const state = { value: 'idle' };
    return Array.from({ length: 120 }, (_, index) => ({
      state,
      steps: [
        { event: { type: 'xstate.init' }, state },
        { event: { type: index === 76 ? 'rare' : 'tick', n: index }, state },
      ],
    })) as unknown as TestPath[];
  }

  it('should page the paths fifty at a time, find them by event or number, and show only the unreplayed ones when asked', async () => {
    const paths = manyPaths();
    const replayed = (n: number) => [pathKey(paths[n - 1]), 'passed'] as const;
    const report: MachineCoverage = {
      ...lifecycleReport,
      machineId: 'fixture',
      replays: [{ ...lifecycleReport.replays[0], system: 'http', results: Object.fromEntries([replayed(3), replayed(90)]) }],
    };
    const entry = { id: 'fixture', file: 'tests/fixtures/fixture-machine.ts', load: async () => ({ machine: fixtureMachine(), paths: () => paths }) };
    const user = userEvent.setup();
    render(
      <I18nextProvider i18n={i18n}>
        <MachineView entry={entry} coverage={{ status: 'ready', reports: [report] }} />
      </I18nextProvider>,
    );
    const listed = async () => {
      const list = await screen.findByTestId('path-list', {}, { timeout: 15_000 });
      return within(list)
        .getAllByRole('button')
        .map((button) => button.textContent);
    };
    const first = await listed();
    expect(screen.getByText('120 paths from the same @xstate/graph call the tests use.')).toBeInTheDocument();
    expect(first).toHaveLength(50);
    expect(first[0]).toBe('1. tick ⇒ idle');
    expect(first[49]).toBe('50. tick ⇒ idle');
    expect(screen.getByText('1–50 of 120')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 3 of 3' }));
    const third = await listed();
    expect(third).toHaveLength(20);
    expect(third[0]).toBe('101. tick ⇒ idle');

    // Typing searches from the first page again: by an event, then by a path's number.
    const search = screen.getByRole('searchbox', { name: 'Find a path by number or event' });
    await user.type(search, 'RARE');
    expect(await listed()).toEqual(['77. rare ⇒ idle']);
    expect(screen.getByText('1 of 120 paths matches.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
    await user.clear(search);
    await user.type(search, '90');
    expect(await listed()).toEqual(['90. tick ⇒ idle']);
    expect(within(screen.getByTestId('path-list')).getByTestId('path-replays')).toHaveTextContent(/Server \(HTTP\): passed/);
    await user.clear(search);
    await user.type(search, 'nothing like it');
    expect(screen.getByTestId('path-no-match')).toHaveTextContent('No path matches. Change the search or clear the filter.');
    expect(screen.queryByTestId('path-list')).toBeNull();
    await user.clear(search);

    // Only the paths no system replayed: 118 of them, so 3 and 90 are gone.
    await user.click(screen.getByRole('checkbox', { name: 'Only paths not yet replayed against a system' }));
    expect(screen.getByText('118 of 120 paths match.')).toBeInTheDocument();
    const unreplayed = await listed();
    expect(unreplayed.slice(0, 3)).toEqual(['1. tick ⇒ idle', '2. tick ⇒ idle', '4. tick ⇒ idle']);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const last = await listed();
    expect(last).toHaveLength(18);
    expect(last).not.toContain('90. tick ⇒ idle');
  });
});

describe('path and state texts', () => {
  it('should write nested and parallel state values as dotted paths', async () => {
    const { stateText } = await import('#src/features/machines/machine-view.tsx');
    expect(stateText('latest')).toBe('latest');
    expect(stateText({ outdated: 'reloading' })).toBe('outdated.reloading');
    expect(stateText({ running: { engine: 'hot', radio: 'off' } })).toBe('running.engine.hot, running.radio.off');
  });
});
