// `About <figure name>`: a disclosure holding the figure's definition (figure-definitions.ts), the
// same text as docs/metrics.md, so a figure is explained where it is shown.
import { FIGURE_DEFINITIONS, type FigureName } from '../figure-definitions.ts';

export function About(p: { figure: FigureName }) {
  return (
    <details class="about">
      <summary>
        About<span class="sr-only"> {p.figure}</span>
      </summary>
      <p>{FIGURE_DEFINITIONS[p.figure]}</p>
    </details>
  );
}
