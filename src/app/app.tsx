import { Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { lazyChunk } from '#src/lib/lazy-chunk.ts';
import { ScrollToTop } from './scroll-to-top.tsx';
import { DashboardLayout, PageLoader } from './shell/dashboard-layout.tsx';

const DashboardPage = lazyChunk(() => import('#src/features/dashboard/dashboard-page.tsx'));
const NotFoundPage = lazyChunk(() => import('./not-found-page.tsx'));
const MyTicketsPage = lazyChunk(() => import('#src/features/tickets/my-tickets-page.tsx'));
const TicketPage = lazyChunk(() => import('#src/features/tickets/ticket-page.tsx'));
const SupportDeskPage = lazyChunk(() => import('#src/features/tickets/support-desk-page.tsx'));
const SupportGroupsPage = lazyChunk(() => import('#src/features/tickets/support-groups-page.tsx'));
const MachinesPage = lazyChunk(() => import('#src/features/machines/machines-page.tsx'));

/** The main application: the lazily loaded chunk rendered inside the router (spec §2). */
export default function App() {
  return (
    <>
      <ScrollToTop />
      <Suspense fallback={<PageLoader />}>
        <Switch>
          <Route>
            <DashboardLayout>
              <Switch>
                <Route path="/" component={DashboardPage} />
                <Route path="/tickets" component={MyTicketsPage} />
                <Route path="/tickets/:ticketId" component={TicketPage} />
                <Route path="/support" component={SupportDeskPage} />
                <Route path="/support/groups" component={SupportGroupsPage} />
                <Route path="/machines" component={MachinesPage} />
                <Route path="/machines/:machineId" component={MachinesPage} />
                <Route component={NotFoundPage} />
              </Switch>
            </DashboardLayout>
          </Route>
        </Switch>
      </Suspense>
    </>
  );
}
