export function App() {
  return (
    <main className="app">
      <header>
        <h1>Scanlab</h1>
        <p className="tagline">
          An interactive lab for the chunked discounted-return scan of RL post-training: slime's{" "}
          <code>chunked_discounted_returns</code>, GAE and REINFORCE++, checked against the float64 serial reference.
        </p>
      </header>
    </main>
  );
}
