"""bgboard.store"""
