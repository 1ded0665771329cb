// A page that fails to draw shows its error where it would have been, with `Try again`, and the
// frame (navigation, brand picker) stays: one broken page never blanks the app. Keyed by the
// address, so leaving the page for another starts that one afresh.
import { Component, type ComponentChildren } from 'preact';
import { PageHead } from './page.tsx';

interface State {
  error?: Error;
}

export class PageBoundary extends Component<{ children: ComponentChildren }, State> {
  state: State = {};

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidCatch(error: Error): void {
    // Kept in the browser's console for whoever reports it; the page says it in words.
    console.error(error);
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <>
        <PageHead title="This page could not be shown" />
        <div class="problem-box" role="alert">
          <p>Something went wrong while drawing this page: {error.message || String(error)}</p>
          <button type="button" onClick={() => this.setState({ error: undefined })}>
            Try again
          </button>
        </div>
      </>
    );
  }
}
