"""bgboard.hints"""
