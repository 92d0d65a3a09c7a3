"""Adapters: any rule file as an OpenSpiel game (openspiel.py) or a PettingZoo environment
(pettingzoo.py). Optional: install with the `rl` extra; the engine never imports this package."""
