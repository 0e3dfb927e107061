"""Configuration of memory_tasks: `settings` (environment / .env) and `celery` (app settings)."""

from config.settings import ConfigError, Settings, get_settings

__all__ = ["ConfigError", "Settings", "get_settings"]
