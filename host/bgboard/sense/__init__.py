"""bgboard.sense"""
