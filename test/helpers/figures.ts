// Analytics results list the analysis versions of their rows (src/operations/analysis-versions.ts);
// tests comparing figures with hand-worked ones compare the figures alone.

/** The result without `analysis_versions`; throws unless that is one version, `gen-N`, or absent. */
export function figuresOnly<T extends Record<string, unknown>>(body: T): Omit<T, 'analysis_versions'> {
  const { analysis_versions: versions, ...figures } = body;
  if (versions !== undefined && !(Array.isArray(versions) && versions.length === 1 && /^gen-\d+$/.test(versions[0]))) {
    throw new Error(`analysis_versions: ${JSON.stringify(versions)}`);
  }
  return figures;
}
