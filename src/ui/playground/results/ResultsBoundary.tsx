import { Component, type ReactNode } from "react";

interface Props {
  /** A new result clears a previous failure. */
  resetKey: unknown;
  /** Called when drawing failed, so the page stops waiting for the drawing to finish. */
  onFailure(): void;
  children: ReactNode;
}

interface State {
  failed: Error | null;
  key: unknown;
}

/**
 * Keeps a drawing failure in the charts or the heatmap from taking the page (and the user's
 * drawing) down with it: the failure is shown in place, and the next result tries again.
 */
export class ResultsBoundary extends Component<Props, State> {
  state: State = { failed: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { failed: error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.key ? null : { failed: null, key: props.resetKey };
  }

  componentDidCatch(): void {
    this.props.onFailure();
  }

  render() {
    if (this.state.failed) {
      return (
        <p className="error-message" role="alert">
          The results could not be drawn: {this.state.failed.message}. Your inputs are safe; change anything to try
          again.
        </p>
      );
    }
    return this.props.children;
  }
}
