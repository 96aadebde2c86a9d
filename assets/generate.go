package assets

// icon.png is drawn from icon.svg; rsvg-convert comes with librsvg2-bin.
//go:generate rsvg-convert -w 512 -h 512 icon.svg -o icon.png
