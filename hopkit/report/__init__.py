"""Self-contained HTML run reports: summary with intervals, per-question rows with each method's trace
drawn as what it is, filters, and a side-by-side view of two runs. Everything from data is escaped."""
