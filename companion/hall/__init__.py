"""Several tables, one hall: tables publish their recorded events to NATS JetStream; the hall
rebuilds every table's picture (and the tournament's results) from the stream."""
