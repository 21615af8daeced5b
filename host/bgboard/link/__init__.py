"""bgboard.link"""
