"""The manager's parts and how one memory is put together (:mod:`.assembly`)."""
