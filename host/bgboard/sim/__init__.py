"""bgboard.sim"""
