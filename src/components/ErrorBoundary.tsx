import { Component, type ReactNode } from "react";
import { ErrorScreen } from "./ErrorScreen.tsx";

interface Props {
  children: ReactNode;
  /** What shows instead of the children once they failed (the full error screen by default). */
  fallback?: ReactNode;
  /**
   * Where the app is (the router's root passes the path): a failure shows until it changes
   * (the browser's back button), then the children render again, as a route's error element
   * did when the router navigated elsewhere.
   */
  resetKey?: string;
}

interface State {
  failed: boolean;
  resetKey?: string;
}

/**
 * Catches render errors, so no fatal error leaves a blank page: around the whole app, at the
 * routes' root (a page or layout whose code cannot load: the full error screen) and inside the
 * main layout (the error screen in place of the page, the sidebar kept). React logs the caught
 * error to the console.
 */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  render() {
    return this.state.failed ? (this.props.fallback ?? <ErrorScreen />) : this.props.children;
  }
}
