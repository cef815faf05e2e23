"""Working memory: tasks with steps that become episodes, and session anchors
(:mod:`.tasks`); the forget gate that scores episodes (:mod:`.forgetting`).
"""
