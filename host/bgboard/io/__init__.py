"""bgboard.io"""
