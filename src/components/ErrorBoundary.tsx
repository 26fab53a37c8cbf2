import { Component, type ReactNode } from "react";
import { ErrorScreen } from "./ErrorScreen.tsx";

interface Props {
  children: ReactNode;
}

/**
 * Catches render errors outside the router (the router's own errorElement catches the routes'),
 * so no fatal error leaves a blank page. React logs the caught error to the console.
 */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? <ErrorScreen /> : this.props.children;
  }
}
