/**
 * A weighted linear least-squares fit `y ≈ Σ_k θ_k·x_k`, each equation divided by its noise scale
 * σ_e, solved by column-pivoted modified Gram–Schmidt (run twice per column, so the orthogonality
 * does not depend on the conditioning). A column that adds nothing new (zero, or a combination of
 * the columns already taken) is left out: its θ cannot be read from these equations.
 */
export interface LeastSquaresFit {
  /** θ_k, NaN for a column left out. */
  theta: number[];
  /** The covariance of θ assuming each equation's error has standard deviation σ_e (NaN rows for left-out columns). */
  covariance: number[][];
  /** Which columns were solved for (not left out, and not entangled with one left out). */
  solved: boolean[];
  /**
   * Columns that are not zero but that these equations cannot separate from others (a left-out
   * column that is a combination of taken ones, and those taken ones): only their combination is known.
   */
  entangled: boolean[];
  /** Σ (residual_e / σ_e)². */
  chiSquare: number;
  equations: number;
  /** The largest |residual_e| / σ_e. */
  worstRatio: number;
  /**
   * Σ_e |∂θ_k/∂y_e|·σ_e: how far θ_k moves when every equation errs by its full noise scale in the
   * worst direction (errors that do not average out: NaN for a left-out column).
   */
  worstCase: number[];
  /** residual_e / σ_e for each equation, in the set's order (what robustFit reads to set equations aside). */
  ratios: Float64Array;
  /** Each equation's tag, in the same order (EquationSet.add). */
  tags: Float64Array;
}

/**
 * Collects equations one at a time: y, the coefficients of the unknowns, and the equation's noise
 * scale. Held in growing Float64Arrays, not arrays of numbers: a fit of a real step adds 10⁶–10⁷
 * equations, three times over (estimatorFits' reweighting), and pushing them onto JS arrays was
 * most of the fit's time.
 */
export class EquationSet {
  private count = 0;
  private yStore: Float64Array;
  private sigmaStore: Float64Array;
  private tagStore: Float64Array;
  private columnStores: Float64Array[];
  constructor(
    readonly unknowns: number,
    capacity = 1024,
  ) {
    this.yStore = new Float64Array(capacity);
    this.sigmaStore = new Float64Array(capacity);
    this.tagStore = new Float64Array(capacity);
    this.columnStores = Array.from({ length: unknowns }, () => new Float64Array(capacity));
  }
  /**
   * Skipped when any term is not finite or σ is not positive (an equation with no information).
   * `tag` names the equation across rebuilds (its position when not given). `coefficients` is read,
   * not kept: a caller may reuse one array for every equation.
   */
  add(y: number, coefficients: ArrayLike<number>, sigma: number, tag = this.count): void {
    if (!(sigma > 0) || !Number.isFinite(y) || !Number.isFinite(sigma)) return;
    for (let k = 0; k < this.unknowns; k++) if (!Number.isFinite(coefficients[k])) return;
    if (this.count === this.yStore.length) this.grow();
    const e = this.count++;
    this.yStore[e] = y;
    this.sigmaStore[e] = sigma;
    this.tagStore[e] = tag;
    for (let k = 0; k < this.unknowns; k++) this.columnStores[k][e] = coefficients[k];
  }
  /**
   * The equations `y`, `columns` and `tags` (taken, not copied: neither side changes them after) with
   * the noise scales `sigma`, those whose `valid` entry is 0 or whose σ is not positive or not finite
   * left out, as add() leaves them out: a fit reweighted over the same equations (estimatorFits)
   * builds their terms once and only their σ per pass. `valid` marks the equations whose y and
   * coefficients are finite; null when every one is.
   */
  static withSigma(
    y: Float64Array,
    columns: Float64Array[],
    tags: Float64Array,
    valid: Uint8Array | null,
    sigma: Float64Array,
  ): EquationSet {
    const n = y.length;
    let kept = 0;
    for (let e = 0; e < n; e++) {
      const s = sigma[e];
      if ((valid === null || valid[e] === 1) && s > 0 && Number.isFinite(s)) kept++;
    }
    const set = new EquationSet(columns.length, 0);
    set.count = kept;
    if (kept === n) {
      set.yStore = y;
      set.sigmaStore = sigma;
      set.tagStore = tags;
      set.columnStores = columns;
      return set;
    }
    set.yStore = new Float64Array(kept);
    set.sigmaStore = new Float64Array(kept);
    set.tagStore = new Float64Array(kept);
    set.columnStores = columns.map(() => new Float64Array(kept));
    let o = 0;
    for (let e = 0; e < n; e++) {
      const s = sigma[e];
      if (!((valid === null || valid[e] === 1) && s > 0 && Number.isFinite(s))) continue;
      set.yStore[o] = y[e];
      set.sigmaStore[o] = s;
      set.tagStore[o] = tags[e];
      for (let k = 0; k < columns.length; k++) set.columnStores[k][o] = columns[k][e];
      o++;
    }
    return set;
  }
  /** The same equations less those whose tag is in `excluded`. */
  without(excluded: ReadonlySet<number>): EquationSet {
    if (excluded.size === 0) return this;
    const out = new EquationSet(this.unknowns, Math.max(1, this.count));
    for (let e = 0; e < this.count; e++) {
      const tag = this.tagStore[e];
      if (excluded.has(tag)) continue;
      const o = out.count++;
      out.yStore[o] = this.yStore[e];
      out.sigmaStore[o] = this.sigmaStore[e];
      out.tagStore[o] = tag;
      for (let k = 0; k < this.unknowns; k++) out.columnStores[k][o] = this.columnStores[k][e];
    }
    return out;
  }
  get size(): number {
    return this.count;
  }
  get y(): Float64Array {
    return this.yStore.subarray(0, this.count);
  }
  get sigma(): Float64Array {
    return this.sigmaStore.subarray(0, this.count);
  }
  /** Who each equation is (sample and token, as the caller numbers them), so a refit can leave some out. */
  get tags(): Float64Array {
    return this.tagStore.subarray(0, this.count);
  }
  /** Each unknown's coefficients, one entry per equation. */
  get columns(): Float64Array[] {
    return this.columnStores.map((c) => c.subarray(0, this.count));
  }
  private grow(): void {
    const bigger = (a: Float64Array) => {
      const b = new Float64Array(Math.max(16, a.length * 2));
      b.set(a);
      return b;
    };
    this.yStore = bigger(this.yStore);
    this.sigmaStore = bigger(this.sigmaStore);
    this.tagStore = bigger(this.tagStore);
    this.columnStores = this.columnStores.map(bigger);
  }
}

/** Each equation's entry divided by its noise scale (w = 1/σ), in a loop: this runs over 10⁵ equations per fit. */
function weighted(
  values: Float64Array,
  w: Float64Array,
  out: Float64Array = new Float64Array(values.length),
): Float64Array {
  for (let e = 0; e < out.length; e++) out[e] = values[e] * w[e];
  return out;
}

/**
 * Rows a solve works in and drops (the weights, the weighted y and columns, the sensitivity rows),
 * reused from solve to solve: fresh ones were some 8 MB of new pages a solve at 131,000 equations,
 * twelve solves in a ppo dump's fits. Slot k's row is rewritten by the next solve: a solve returns none of them.
 */
const scratchRows: Float64Array[] = [];

/** Slot `k`'s row of `n` elements, as left by the last solve (every caller writes it before reading). */
function scratch(k: number, n: number): Float64Array {
  if (!(scratchRows[k]?.length >= n)) scratchRows[k] = new Float64Array(n);
  return scratchRows[k].subarray(0, n);
}

/** Below this share of its own norm, what is left of a column after the others is rounding: collinear. */
const RANK_TOLERANCE = 1e-9;

export function solveLeastSquares(set: EquationSet): LeastSquaresFit {
  const n = set.size;
  const p = set.unknowns;
  const sigma = set.sigma;
  const w = scratch(0, n);
  for (let e = 0; e < n; e++) w[e] = 1 / sigma[e];
  const y = weighted(set.y, w, scratch(1, n));
  // Columns scaled to unit norm, so the rank test and R's conditioning do not depend on units.
  const norms: number[] = [];
  const q: Float64Array[] = set.columns.map((col, k) => {
    const c = weighted(col, w, scratch(2 + k, n));
    const norm = Math.hypot(...chunkedNorms(c));
    norms.push(norm);
    if (norm > 0) for (let e = 0; e < n; e++) c[e] /= norm;
    return c;
  });
  const order: number[] = [];
  const R: number[][] = Array.from({ length: p }, () => new Array(p).fill(0));
  const remaining = new Set(q.map((_, k) => k).filter((k) => norms[k] > 0));
  // Each candidate's projections on the directions taken so far: its column of R once taken.
  const projections: number[][] = q.map(() => []);
  while (remaining.size > 0) {
    // Pivot: the column with the most left after projecting out those taken.
    let best = -1;
    let bestNorm = -1;
    for (const k of remaining) {
      const nk = norm2(q[k]);
      if (nk > bestNorm) {
        bestNorm = nk;
        best = k;
      }
    }
    if (!(bestNorm > RANK_TOLERANCE)) break;
    remaining.delete(best);
    const col = q[best];
    const j = order.length;
    for (let i = 0; i < j; i++) R[i][j] = projections[best][i];
    // Second pass of Gram–Schmidt: what rounding left of the earlier directions.
    for (let i = 0; i < j; i++) {
      const d = dot(q[order[i]], col);
      R[i][j] += d;
      axpy(-d, q[order[i]], col);
    }
    const rjj = norm2(col);
    R[j][j] = rjj;
    for (let e = 0; e < n; e++) col[e] /= rjj;
    order.push(best);
    // Keep the other candidates orthogonal to the new direction (MGS order).
    for (const k of remaining) {
      const d = dot(col, q[k]);
      projections[k][j] = d;
      axpy(-d, col, q[k]);
    }
  }
  const m = order.length;
  // A nonzero column left out is a combination of taken ones: those cannot be told apart from it.
  const entangled = new Array(p).fill(false);
  for (const d of remaining) {
    entangled[d] = true;
    const c = backSolve(
      R,
      projections[d].slice(0, m).concat(new Array(Math.max(0, m - projections[d].length)).fill(0)),
      m,
    );
    c.forEach((x, i) => {
      if (Math.abs(x) > RANK_TOLERANCE) entangled[order[i]] = true;
    });
  }
  const qty = order.map((k) => dot(q[k], y));
  const z = backSolve(R, qty, m);
  const residual = y.slice();
  order.forEach((k, i) => {
    axpy(-qty[i], q[k], residual);
  });
  const worstRatio = maxAbs(residual);
  // Cov(z) = R⁻¹R⁻ᵀ; θ_k = z/‖x_k‖.
  const rInv = invertUpper(R, m);
  const theta = new Array(p).fill(Number.NaN);
  const covariance = Array.from({ length: p }, () => new Array(p).fill(Number.NaN));
  const solved = new Array(p).fill(false);
  order.forEach((k, i) => {
    theta[k] = z[i] / norms[k];
    solved[k] = !entangled[k];
    order.forEach((l, j) => {
      let c = 0;
      for (let r = Math.max(i, j); r < m; r++) c += rInv[i][r] * rInv[j][r];
      covariance[k][l] = c / (norms[k] * norms[l]);
    });
  });
  // Row i of R⁻¹Qᵀ is θ'_i's sensitivity to each (scaled) equation.
  const worstCase = new Array(p).fill(Number.NaN);
  const row = scratch(2 + p, n);
  order.forEach((k, i) => {
    row.fill(0);
    for (let r = i; r < m; r++) axpy(rInv[i][r], q[order[r]], row);
    worstCase[k] = absSum(row) / norms[k];
  });
  order.forEach((k) => {
    if (entangled[k]) theta[k] = Number.NaN;
  });
  return {
    theta,
    covariance,
    solved,
    entangled,
    chiSquare: dot(residual, residual),
    equations: n,
    worstRatio,
    worstCase,
    ratios: residual,
    tags: set.tags,
  };
}

/**
 * residual_e / σ_e of every equation of `set` at θ (a fit's, perhaps of other equations): null
 * when θ leaves out a column some equation uses (its value is then unknown).
 */
export function ratiosAt(set: EquationSet, theta: number[]): Float64Array | null {
  const out = new Float64Array(set.size);
  const { y, sigma, columns } = set;
  for (let e = 0; e < set.size; e++) {
    let r = y[e];
    for (let k = 0; k < set.unknowns; k++) {
      const x = columns[k][e];
      if (x === 0) continue;
      if (!Number.isFinite(theta[k])) return null;
      r -= theta[k] * x;
    }
    out[e] = r / sigma[e];
  }
  return out;
}

function backSolve(R: number[][], b: number[], m: number): number[] {
  const x = new Array(m).fill(0);
  for (let i = m - 1; i >= 0; i--) {
    let s = b[i];
    for (let j = i + 1; j < m; j++) s -= R[i][j] * x[j];
    x[i] = s / R[i][i];
  }
  return x;
}

function invertUpper(R: number[][], m: number): number[][] {
  const inv = Array.from({ length: m }, () => new Array(m).fill(0));
  for (let c = 0; c < m; c++) {
    const e = new Array(m).fill(0);
    e[c] = 1;
    const col = backSolve(R, e, m);
    for (let r = 0; r < m; r++) inv[r][c] = col[r];
  }
  return inv;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let e = 0; e < a.length; e++) s += a[e] * b[e];
  return s;
}

function axpy(alpha: number, x: Float64Array, y: Float64Array): void {
  for (let e = 0; e < y.length; e++) y[e] += alpha * x[e];
}

function norm2(a: Float64Array): number {
  return Math.hypot(...chunkedNorms(a));
}

/** Norms of 1024-long pieces: Math.hypot over them avoids overflow without a spread of a long array. */
function chunkedNorms(a: Float64Array): number[] {
  const out: number[] = [];
  for (let start = 0; start < a.length; start += 1024) {
    let scale = 0;
    const end = Math.min(a.length, start + 1024);
    for (let e = start; e < end; e++) scale = Math.max(scale, Math.abs(a[e]));
    if (scale === 0) continue;
    let s = 0;
    for (let e = start; e < end; e++) s += (a[e] / scale) ** 2;
    out.push(scale * Math.sqrt(s));
  }
  return out.length > 0 ? out : [0];
}

/**
 * The largest |x| over a row (0 for none): a function of its own, where the loop inline was compiled
 * on the fly (OSR) with its running maximum a fresh heap number per equation.
 */
function maxAbs(row: Float64Array): number {
  let worst = 0;
  for (let e = 0; e < row.length; e++) worst = Math.max(worst, Math.abs(row[e]));
  return worst;
}

/** Σ|x| over a row, in order: a function of its own, as maxAbs. */
function absSum(row: Float64Array): number {
  let s = 0;
  for (let e = 0; e < row.length; e++) s += Math.abs(row[e]);
  return s;
}
