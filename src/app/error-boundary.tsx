import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorScreen } from './error-screen.tsx';

interface Props {
  children: ReactNode;
  /** Rendered instead of the default screen (tests). */
  fallback?: ReactNode;
}

/** Catches any rendering error below it (including a failed chunk load) and shows the error screen. */
export class AppErrorBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Rendering error', error.name, error.message, info.componentStack);
  }

  override render() {
    if (this.state.error) return this.props.fallback ?? <ErrorScreen />;
    return this.props.children;
  }
}
