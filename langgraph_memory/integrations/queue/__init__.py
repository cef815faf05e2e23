"""The queue-fed write path: the service publishes writes, ``langgraph-memory worker``
processes store them.

- :mod:`.broker`: :class:`WriteQueue`, the write queue on Redis Streams (a consumer
  group, a backlog bound, a dead-letter stream) and why Redis rather than RabbitMQ;
- :mod:`.publisher`: :class:`WritePublisher`, the API side (validate, publish, answer);
- :mod:`.worker`: :class:`QueueWorker`, the consuming loop (store, then acknowledge).

Without a broker the service keeps the memory's own durable in-store queue.

Example:
    $ langgraph-memory serve --broker redis://127.0.0.1:6379/0
    $ langgraph-memory worker --broker redis://127.0.0.1:6379/0
"""

from langgraph_memory.integrations.queue.broker import (
    BROKER_ENV,
    DeadLetter,
    Delivery,
    QueueError,
    QueueFull,
    QueueUnavailable,
    WriteQueue,
)
from langgraph_memory.integrations.queue.publisher import WritePublisher
from langgraph_memory.integrations.queue.worker import QueueWorker

__all__ = [
    "BROKER_ENV",
    "WriteQueue",
    "WritePublisher",
    "QueueWorker",
    "Delivery",
    "DeadLetter",
    "QueueError",
    "QueueFull",
    "QueueUnavailable",
]
