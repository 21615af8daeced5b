"""bgboard.display"""
