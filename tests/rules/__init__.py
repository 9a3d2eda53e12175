"""Tests of the pure rules core (service.rules): dice, distributions, game systems."""
