// Package readingcheck draws a check box with its words in the window's
// reading order; it knows nothing of Hoist but its widgets.
package readingcheck

import (
	"hoist/ui/widgets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Check is a check box with its words, in reading order: the box at
// the start of the line, left in English and right in Arabic, Persian and
// Hebrew, the words beside it drawn from the reading side. The toolkit's
// check box puts its box at the left whatever the language. A tap on the
// words ticks the box, as on the toolkit's.
type Check struct {
	widget.BaseWidget
	box   *widget.Check
	words *tappableLabel
	line  *fyne.Container
}

// New makes a check box saying text; changed hears every tick and untick.
func New(text string, changed func(bool)) *Check {
	c := &Check{box: widget.NewCheck("", changed)}
	c.words = newTappableLabel(text, func() {
		if !c.box.Disabled() {
			c.box.SetChecked(!c.box.Checked)
		}
	})
	c.line = widgets.Border(nil, nil, c.box, nil, c.words)
	c.ExtendBaseWidget(c)
	return c
}

// SetChecked ticks the box or takes its tick away, as the user would.
func (c *Check) SetChecked(on bool) { c.box.SetChecked(on) }

// Checked says whether the box is ticked.
func (c *Check) Checked() bool { return c.box.Checked }

// Parts are the box and its words as drawn, for checking where each sits.
func (c *Check) Parts() (box, words fyne.CanvasObject) { return c.box, c.words }

func (c *Check) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(c.line)
}

// tappableLabel is bidi words that answer a tap. They wrap: a setting's
// words cut short ("Continue unfinished uploads when H…") cannot be read.
type tappableLabel struct {
	widget.BaseWidget
	label *widgets.Paragraph
	tap   func()
}

func newTappableLabel(text string, tap func()) *tappableLabel {
	l := &tappableLabel{label: widgets.NewParagraph(text), tap: tap}
	l.ExtendBaseWidget(l)
	return l
}

func (l *tappableLabel) Tapped(*fyne.PointEvent) { l.tap() }

func (l *tappableLabel) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(l.label)
}
