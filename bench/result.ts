export interface BenchResult {
  name: string;
  metric: string;
  value: number;
  unit: string;
  /** The budget, when the project has one for this figure. */
  target?: string;
}
